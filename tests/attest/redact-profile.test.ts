/**
 * The profile a statement embeds (cli/attest/redact-profile.ts): every field the run used, no credential —
 * literal or from the environment — and a digest that depends on the content, not on how it was written.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { canonicalSha256, sha256Hex } from '../../cli/attest/digest.ts';
import { REDACTED, redactProfile } from '../../cli/attest/redact-profile.ts';
import { profileSecrets } from '../../shared/secrets.ts';
import { SHORTEST_SEARCHED_SECRET } from '../../specs/lib/redact.ts';
import { ROOT } from '../report/synthetic.ts';
import type { Json } from './signing.ts';

const read = (file: string) => JSON.parse(readFileSync(path.join(ROOT, 'fixtures', file), 'utf8')) as Json;

/** Each secret and its base64 form (Basic sends user:password base64-encoded). */
function leaks(text: string, secrets: readonly string[]): string[] {
  return secrets.filter(
    (s) =>
      s.length >= SHORTEST_SEARCHED_SECRET &&
      (text.includes(s) || text.includes(Buffer.from(s).toString('base64'))),
  );
}

test('the bundled profiles: no secret left, every other field kept', () => {
  for (const file of ['mock.profile.json', 'mock.oauth.profile.json']) {
    const raw = read(file);
    const redacted = redactProfile(raw, {}) as Json;
    const secrets = profileSecrets(raw, {});
    expect(secrets.length, file).toBeGreaterThan(5);
    expect(leaks(JSON.stringify(redacted), secrets), file).toEqual([]);
    expect(redacted.endpoints, file).toEqual(raw.endpoints);
    expect(redacted.budget, file).toEqual(raw.budget);
    expect(redacted.identities.admin.basic, file).toEqual({ username: REDACTED, password: REDACTED });
    expect(redacted.identities.admin.jwtClaims, file).toEqual(raw.identities.admin.jwtClaims);
  }
  const mock = redactProfile(read('mock.profile.json'), {}) as Json;
  expect(mock.jwt.privateJwk).toBe(REDACTED);
  expect(mock.jwt.alg).toBe('RS256');
  expect(mock.identities.admin.bearer).toBe(REDACTED);
  expect(mock.identities.admin.apikey).toBe(REDACTED);
  expect(mock.fault.headers).toEqual({ 'X-Gatecheck-Fault': REDACTED });
  // Blocking headers are not credentials: they say how the suite appeared blocked.
  expect(mock.blocked).toEqual(read('mock.profile.json').blocked);
  expect(mock.rateLimit).toEqual(read('mock.profile.json').rateLimit);
  const oauth = redactProfile(read('mock.oauth.profile.json'), {}) as Json;
  expect(oauth.identities.admin.token.oauth2).toMatchObject({
    tokenUrl: '/oauth/token',
    grant: 'client_credentials',
    clientId: REDACTED,
    clientSecret: REDACTED,
  });
});

test('secrets from the environment: the reference stays, the value never appears, not even repeated elsewhere', () => {
  const env = {
    ADMIN_PASSWORD: 'pa55word-from-ci',
    ADMIN_KEY: 'gck_env_key_1234567890',
    SIGNING_JWK: JSON.stringify({
      kty: 'OKP',
      crv: 'Ed25519',
      x: 'public-part-x',
      d: 'private-part-d-secret',
    }),
  };
  const raw = {
    name: 'staging',
    endpoints: {
      public: { path: '/users' },
      collection: { path: '/users', sampleItem: { note: 'pa55word-from-ci' } },
    },
    identities: {
      admin: {
        basic: { username: 'root', password: { env: 'ADMIN_PASSWORD' } },
        apikey: { env: 'ADMIN_KEY' },
      },
      user: {
        token: {
          login: {
            path: '/login',
            tokenPointer: '/token',
            json: { user: 'bob', pass: 'login-pass-literal' },
          },
        },
      },
    },
    jwt: {
      alg: 'EdDSA',
      privateJwk: { env: 'SIGNING_JWK' },
      publicJwk: { kty: 'OKP', crv: 'Ed25519', x: 'public-part-x', d: 'stray-private-member' },
    },
    tls: { ca: 'ca.pem', cert: 'client.pem', key: 'client-key.pem' },
    fault: { path: '/boom', headers: { 'X-Fault-Token': 'fault-header-secret' } },
  };
  const redacted = redactProfile(raw, env) as Json;
  const text = JSON.stringify(redacted);
  for (const secret of [
    ...Object.values(env),
    'private-part-d-secret',
    'login-pass-literal',
    'fault-header-secret',
    'stray-private-member',
  ]) {
    expect(text, secret).not.toContain(secret);
  }
  expect(redacted.identities.admin.basic.password).toEqual({ env: 'ADMIN_PASSWORD' });
  expect(redacted.identities.admin.apikey).toEqual({ env: 'ADMIN_KEY' });
  expect(redacted.jwt.privateJwk).toEqual({ env: 'SIGNING_JWK' });
  expect(redacted.jwt.publicJwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: 'public-part-x', d: REDACTED });
  expect(redacted.tls).toEqual({ ca: 'ca.pem', cert: 'client.pem', key: REDACTED });
  expect(redacted.identities.user.token.login).toMatchObject({
    path: '/login',
    json: { user: REDACTED, pass: REDACTED },
  });
  // The value repeated in a free-form field is caught by the Scrubber: prefix kept, rest redacted.
  expect(redacted.endpoints.collection.sampleItem.note).toBe('pa55…[redacted]');
});

test('the profile digest is SHA-256 of the RFC 8785 serialization: member order does not change it', () => {
  expect(canonicalSha256({ b: [1, 'x'], a: { d: null, c: true } })).toBe(
    sha256Hex('{"a":{"c":true,"d":null},"b":[1,"x"]}'),
  );
  expect(canonicalSha256({ b: 1, a: 2 })).toBe(canonicalSha256({ a: 2, b: 1 }));
  expect(canonicalSha256({ a: 2, b: 1 })).not.toBe(canonicalSha256({ a: 2, b: 2 }));
});
