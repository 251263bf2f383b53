/**
 * What the benchmarks, the soak run and the reliability tests send and to which mock: the demo credentials
 * (fixtures/mock.profile.json), an ES256 token minted like the demo RS256 one, the policy that makes
 * `GET /users` need credentials, and — in ONE place — the rate-limit settings of each measured mock.
 *
 * Why a second policy: in the default policy `GET /users` is public (seed §4), so credentials sent there are
 * ignored. To compare the authentication path with bare json-server on the same data and route, the
 * benchmark's "auth" mock requires any scheme on `GET /users`; everything else stays as in fixtures/policy.json.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importJWK, type JWK, SignJWT } from 'jose';
import type { RateLimitFile } from '../mock/access/rate-limit-settings.ts';
import { FIXTURES_DIR } from '../mock/config.ts';
import type { Policy } from '../mock/routing/policy.ts';
import type { IdentityCredentials, Profile } from '../specs/profile/types.ts';
import type { MockProcessConfig } from './mock-process.ts';

export const PROFILE_PATH = join(FIXTURES_DIR, 'mock.profile.json');
export const PROFILE = JSON.parse(readFileSync(PROFILE_PATH, 'utf8')) as Profile;
export const ADMIN = PROFILE.identities.admin as Required<IdentityCredentials>;
export const USER = PROFILE.identities.user as Required<IdentityCredentials>;

/**
 * Throughput, load and data runs: the rate limiter stays on (its cost is part of every request, as by
 * default) but its limits are out of reach — the default 3,000 requests (and 20,000 failed credential
 * attempts) per 10 s per client would turn a benchmark into a measurement of the 429 path within seconds.
 */
export const UNREACHABLE_RATE_LIMIT: RateLimitFile = {
  enabled: true,
  groups: {
    default: {
      limit: 1_000_000_000,
      failedAttemptLimit: 1_000_000_000,
      windowSeconds: 10,
      banAfter: 1_000_000_000,
      banSeconds: 0,
    },
  },
};

/** The 429 path: one request per day per client, every later one refused with 429, never banned (403). */
export const TINY_RATE_LIMIT: RateLimitFile = {
  enabled: true,
  groups: { default: { limit: 1, windowSeconds: 86_400, banAfter: 1_000_000_000, banSeconds: 0 } },
};

/** fixtures/policy.json with `GET /users` needing credentials of any scheme (no role, no scope). */
export function authenticatedUsersPolicy(): Policy {
  const policy = JSON.parse(readFileSync(join(FIXTURES_DIR, 'policy.json'), 'utf8')) as Policy & {
    $schema?: string;
  };
  delete policy.$schema;
  const routes = policy.routes.map((route) =>
    route.path === '/users'
      ? { ...route, methods: { ...route.methods, GET: { schemes: ['bearer', 'basic', 'apikey'] } } }
      : route,
  );
  return { ...policy, routes } as Policy;
}

export type MockName = 'public' | 'auth' | 'unauthenticated' | 'malformed' | 'limited';

/**
 * The 400 path: a Bearer credential that is not one token68 (RFC 6750 §2.1 b64token; a space inside), which
 * the mock answers 400 `error="invalid_request"` before any verification.
 */
export const MALFORMED_AUTHORIZATION = 'Bearer not one token68';

/** The measured mocks, by name. */
export function mockConfigs(): Record<MockName, MockProcessConfig> {
  const auth: MockProcessConfig = { rateLimit: UNREACHABLE_RATE_LIMIT, policy: authenticatedUsersPolicy() };
  return {
    /** The default policy: GET /users is public. */
    public: { rateLimit: UNREACHABLE_RATE_LIMIT },
    /** GET /users needs credentials: the 200 cases of each scheme. */
    auth,
    /** The same, for the 401 case (no credentials) alone, so its CPU profile shows that path only. */
    unauthenticated: auth,
    /** The same, for the 400 case (malformed credentials) alone. */
    malformed: auth,
    /** The 429 case. */
    limited: { rateLimit: TINY_RATE_LIMIT },
  };
}

export function basicValue(identity: Required<IdentityCredentials>): string {
  const { username, password } = identity.basic;
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/**
 * A Bearer token signed with the test-only ES256 key of fixtures/keys/private.jwks.json, with the issuer,
 * audience and claims of the demo (RS256) admin token.
 */
export async function mintEs256(identity: Required<IdentityCredentials> = ADMIN): Promise<string> {
  const jwks = JSON.parse(readFileSync(join(FIXTURES_DIR, 'keys', 'private.jwks.json'), 'utf8')) as {
    keys: JWK[];
  };
  const jwk = jwks.keys.find((k) => k.alg === 'ES256');
  if (jwk === undefined)
    throw new Error('fixtures/keys/private.jwks.json has no ES256 key (npm run fixtures)');
  const key = await importJWK(jwk, 'ES256');
  const jwt = PROFILE.jwt;
  const { sub, ...claims } = identity.jwtClaims as Record<string, unknown>;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT', ...(jwk.kid ? { kid: jwk.kid } : {}) })
    .setSubject(String(sub))
    .setIssuer(String(jwt?.issuer))
    .setAudience(String(jwt?.audience))
    .setIssuedAt()
    .setExpirationTime('6h')
    .sign(key);
}

/** One Authorization value per scheme (Bearer RS256 is the demo token, ES256 is minted), for `identity`. */
export async function authorizationValues(
  identity: Required<IdentityCredentials> = ADMIN,
): Promise<Record<'bearerRs256' | 'bearerEs256' | 'basic' | 'apikey', string>> {
  return {
    bearerRs256: `Bearer ${identity.bearer}`,
    bearerEs256: `Bearer ${await mintEs256(identity)}`,
    basic: basicValue(identity),
    apikey: `Apikey ${identity.apikey}`,
  };
}
