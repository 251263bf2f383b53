/**
 * Shared material for the authenticator's unit tests: settings pointing at the committed fixtures, the
 * plaintext credentials from fixtures/mock.profile.json, and a token minter over the private test keys.
 */
import { createPrivateKey, type JsonWebKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';
import { type CryptoKey, importJWK, type JWK, SignJWT } from 'jose';
import { type AuthenticatorHooks, createAuthenticator } from '../../../mock/auth/authenticator.ts';
import type {
  Authenticator,
  AuthFailureCode,
  AuthResult,
  AuthSettings,
  Identity,
} from '../../../mock/auth/types.ts';
import type { Profile } from '../../../specs/profile/types.ts';

const fixture = (path: string): string =>
  fileURLToPath(new URL(`../../../fixtures/${path}`, import.meta.url));

export const ISSUER = 'https://mock.gatecheck.local/';
export const AUDIENCE = 'gatecheck-mock';
export const LEEWAY = 30;

export const SETTINGS: AuthSettings = {
  jwksPath: fixture('keys/jwks.json'),
  identitiesPath: fixture('identities.json'),
  issuer: ISSUER,
  audience: AUDIENCE,
  algorithms: ['RS256', 'ES256'],
  clockToleranceSeconds: LEEWAY,
  cacheSize: 100,
};

export const PROFILE = JSON.parse(readFileSync(fixture('mock.profile.json'), 'utf8')) as Profile;
const PRIVATE_JWKS = JSON.parse(readFileSync(fixture('keys/private.jwks.json'), 'utf8')) as { keys: JWK[] };
export const PUBLIC_JWKS = JSON.parse(readFileSync(fixture('keys/jwks.json'), 'utf8')) as { keys: JWK[] };

export function privateJwk(alg: 'RS256' | 'ES256'): JWK {
  const jwk = PRIVATE_JWKS.keys.find((key) => key.alg === alg);
  if (jwk === undefined) throw new Error(`no ${alg} key in private.jwks.json`);
  return jwk;
}

export function publicJwk(alg: 'RS256' | 'ES256'): JWK {
  const jwk = PUBLIC_JWKS.keys.find((key) => key.alg === alg);
  if (jwk === undefined) throw new Error(`no ${alg} key in jwks.json`);
  return jwk;
}

/** The reference clock of every test, in ms; tokens are minted relative to it. */
export const NOW = Date.now();
export const NOW_S = Math.floor(NOW / 1000);

export function authenticator(
  overrides: Partial<AuthSettings> = {},
  hooks: AuthenticatorHooks = {},
): Promise<Authenticator> {
  return createAuthenticator({ ...SETTINGS, ...overrides }, hooks);
}

export interface MintOptions {
  readonly alg?: 'RS256' | 'ES256';
  /** Merged over the default claims; a value of `undefined` removes the claim. */
  readonly claims?: Record<string, unknown>;
  /** Merged over { alg, kid, typ }. */
  readonly header?: Record<string, unknown>;
  /** Signs with this key instead of the fixture key of `alg`. */
  readonly key?: CryptoKey | Uint8Array;
  /** jose sign options (e.g. `crit` to let jose sign an extension). */
  readonly crit?: Record<string, boolean>;
}

/** A JWT for bob (roles [user], scope users:read), valid for an hour from NOW unless told otherwise. */
export async function mint(options: MintOptions = {}): Promise<string> {
  const alg = options.alg ?? 'RS256';
  const jwk = privateJwk(alg);
  const claims: Record<string, unknown> = { ...defaultClaims(), ...options.claims };
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
  const key = options.key ?? (await importJWK(jwk, alg));
  return new SignJWT(claims)
    .setProtectedHeader({ alg, kid: jwk.kid, typ: 'JWT', ...options.header })
    .sign(key, options.crit === undefined ? undefined : { crit: options.crit });
}

export const b64url = (value: string | Uint8Array): string => Buffer.from(value).toString('base64url');
export const b64urlJson = (value: unknown): string => b64url(JSON.stringify(value));

/**
 * Signs `header.payload` with the fixture key without jose's checks, for headers jose refuses to produce
 * (a `crit` naming an absent parameter, `b64: false`): the signature is genuine, only the header is odd.
 */
export function signRaw(
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
  alg: 'RS256' | 'ES256' = 'RS256',
): string {
  const input = `${b64urlJson({ alg, kid: privateJwk(alg).kid, ...header })}.${b64urlJson(claims)}`;
  const key = createPrivateKey({ key: privateJwk(alg) as JsonWebKey, format: 'jwk' });
  const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${b64url(signature)}`;
}

/** The default claims `mint` uses, for tokens built by hand. */
export function defaultClaims(): Record<string, unknown> {
  return {
    sub: 'bob',
    roles: ['user'],
    scope: 'users:read',
    iss: ISSUER,
    aud: AUDIENCE,
    iat: NOW_S,
    exp: NOW_S + 3600,
  };
}

export function basicHeader(userPass: string | Buffer, encoding: 'padded' | 'unpadded' = 'padded'): string {
  const base64 = Buffer.from(userPass).toString('base64');
  return `Basic ${encoding === 'padded' ? base64 : base64.replace(/=+$/, '')}`;
}

export function credentialsOf(role: 'admin' | 'user' | 'ratelimit') {
  const credentials = PROFILE.identities[role];
  if (
    credentials?.bearer === undefined ||
    credentials.basic === undefined ||
    credentials.apikey === undefined
  ) {
    throw new Error(`fixtures/mock.profile.json lacks credentials for ${role}; run npm run fixtures`);
  }
  return { bearer: credentials.bearer, basic: credentials.basic, apikey: credentials.apikey };
}

/** Asserts success and returns the identity. */
export function expectIdentity(result: AuthResult): Identity {
  if (!result.ok) throw new Error(`expected success, got ${result.status} ${result.code}: ${result.reason}`);
  return result.identity;
}

/**
 * Asserts a failure with this status and code, and that its reason quotes no part of `credential`
 * (no run of 8+ characters of it): reasons reach problem+json and the journal.
 */
export function expectFailure(
  result: AuthResult,
  status: 400 | 401,
  code: AuthFailureCode,
  credential?: string,
): Extract<AuthResult, { ok: false }> {
  expect(result, JSON.stringify(result)).toMatchObject({ ok: false, status, code });
  if (result.ok) throw new Error('unreachable');
  expect(result.reason.length).toBeGreaterThan(0);
  if (credential !== undefined) {
    for (const part of credential.split(/[ .:]/)) {
      for (let start = 0; start + 8 <= part.length; start += 4) {
        expect(result.reason, 'reason must not quote the credential').not.toContain(
          part.slice(start, start + 8),
        );
      }
    }
  }
  return result;
}
