/**
 * The profile's credential shapes (docs/profile.md): any secret as `{ "env": NAME }` (a missing or empty
 * variable → one line naming the field and the variable, never a value), `token.oauth2` / `token.login`,
 * and `tls`; each refused with one line naming the field.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { parseProfile } from '../../specs/profile/load.ts';
import { OAUTH_PROFILE } from './oauth-target.ts';

// biome-ignore lint/suspicious/noExplicitAny: profile data edited freely by the cases below
type Json = Record<string, any>;

const base = (): Json => JSON.parse(readFileSync(OAUTH_PROFILE, 'utf8')) as Json;
const messageOf = (data: unknown, env: NodeJS.ProcessEnv = {}): string => {
  try {
    parseProfile(data, env);
    return 'accepted';
  } catch (e) {
    return (e as Error).message;
  }
};

test('{ "env": NAME } secrets are read from the environment; the typed profile holds the values', () => {
  const p = base();
  p.identities.user.apikey = { env: 'GC_KEY' };
  p.identities.admin.token.oauth2.clientSecret = { env: 'GC_SECRET' };
  const jwk = p.jwt.privateJwk;
  p.jwt.privateJwk = { env: 'GC_JWK' };
  const profile = parseProfile(p, {
    GC_KEY: 'gck_from_env',
    GC_SECRET: 'gcs_from_env',
    GC_JWK: JSON.stringify(jwk),
  });
  expect(profile.identities.user?.apikey).toBe('gck_from_env');
  const token = profile.identities.admin?.token;
  expect(token && 'oauth2' in token ? token.oauth2.clientSecret : undefined).toBe('gcs_from_env');
  expect(profile.jwt?.privateJwk).toEqual(jwk);
});

test('a missing or empty variable → one line naming field and variable, no value', () => {
  const p = base();
  p.identities.admin.token.oauth2.clientSecret = { env: 'GC_SECRET' };
  expect(messageOf(p)).toBe(
    'profile: /identities/admin/token/oauth2/clientSecret needs environment variable GC_SECRET, which is not set',
  );
  expect(messageOf(p, { GC_SECRET: '' })).toContain('which is empty');
  p.identities.admin.token.oauth2.clientSecret = 'x';
  p.jwt.privateJwk = { env: 'GC_JWK' };
  const bad = messageOf(p, { GC_JWK: 'not-json-secret-value' });
  expect(bad).toContain('/jwt/privateJwk needs environment variable GC_JWK to hold a JSON Web Key');
  expect(bad).not.toContain('not-json-secret-value');
});

test('token and tls shapes are checked: grant, password grant fields, one body, cert with key, unknown keys', () => {
  const cases: [(p: Json) => void, string][] = [
    [
      (p) => (p.identities.admin.token.oauth2.grant = 'implicit'),
      '/identities/admin/token/oauth2/grant must be one of client_credentials, password',
    ],
    [
      (p) => delete p.identities.user.token.oauth2.username,
      '/identities/user/token/oauth2/username is required for grant password',
    ],
    [
      (p) =>
        (p.identities.admin.token = { login: { path: '/login', tokenPointer: '/t', json: {}, form: {} } }),
      '/identities/admin/token/login/form cannot be given with json',
    ],
    [
      (p) => (p.identities.admin.token = { login: { path: '/login' } }),
      '/identities/admin/token/login/tokenPointer is required',
    ],
    [(p) => (p.tls = { cert: 'c.pem' }), '/tls/key is required with its pair'],
    [(p) => (p.tls = { insecure: 'yes' }), '/tls/insecure must be boolean'],
    [
      (p) => (p.identities.admin.token.oauth2.secret = 'x'),
      '/identities/admin/token/oauth2/secret is not a known field',
    ],
  ];
  for (const [change, expected] of cases) {
    const p = base();
    change(p);
    expect(messageOf(p)).toContain(expected);
  }
  const login = base();
  login.identities.admin.token = {
    login: {
      path: '/login',
      json: { user: 'a', password: { env: 'PW' } },
      tokenPointer: '/token',
      expiresInPointer: '/ttl',
    },
  };
  expect(messageOf(login, { PW: 'pw' })).toBe('accepted');
});
