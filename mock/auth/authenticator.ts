/**
 * The entry point the request pipeline calls (contract: mock/auth/types.ts). It reads one Authorization
 * field, picks the scheme and hands the token68 to that scheme's verifier:
 *   no field → 401 missing; several fields, or a value that is not `scheme [1*SP token68]` → 400 malformed;
 *   a scheme the route does not accept (Digest, or Basic on a Bearer-only route) → 401 scheme_not_accepted;
 *   a well-formed credential that does not verify → 401 with the verifier's code.
 */
import { readFile } from 'node:fs/promises';
import type { JSONWebKeySet } from 'jose';
import { createApikeyVerifier } from './apikey.ts';
import { createBasicVerifier } from './basic.ts';
import { createBearerVerifier } from './bearer.ts';
import { authFailure } from './failures.ts';
import { loadIdentityStore } from './identity-store.ts';
import { dummyPasswordHash, verifyPassword } from './password-hash.ts';
import { lastPerConnection, schemeNamed } from './prepared.ts';
import type { Authenticator, AuthResult, AuthSettings, Scheme } from './types.ts';

/** Optional observers, for tests and measurements; the pipeline passes none. */
export interface AuthenticatorHooks {
  /**
   * Called on every cache miss that costs real work: a JWT signature check, or a scrypt derivation (then
   * `dummy` says whether it ran against the dummy hash of an unknown user).
   */
  readonly onSlowVerify?: (scheme: 'bearer' | 'basic', dummy?: boolean) => void;
}

const DISPLAY: Readonly<Record<Scheme, string>> = { bearer: 'Bearer', basic: 'Basic', apikey: 'Apikey' };

// Seed §5 rule 2; RFC 6750 §3.1: a request without credentials gets a challenge and no error code.
const missing = authFailure('missing', 'authentication is required: send an Authorization header');
// RFC 9110 §5.3: Authorization is a singleton field, so a sender MUST NOT send it twice.
const duplicate = authFailure('malformed', 'more than one Authorization header field (RFC 9110 §5.3)');
const notCredentials = authFailure(
  'malformed',
  'Authorization is not `auth-scheme [ 1*SP credentials ]` (RFC 9110 §11.4)',
);
const malformed: Readonly<Record<Scheme, AuthResult>> = {
  // RFC 6750 §2.1: b64token; RFC 7617 §2: token68; seed §5: Apikey <key>, taken to be token68 as well.
  bearer: authFailure('malformed', 'Bearer credentials must be one token68 (RFC 6750 §2.1)', 'bearer'),
  basic: authFailure('malformed', 'Basic credentials must be one token68 (RFC 7617 §2)', 'basic'),
  apikey: authFailure('malformed', 'Apikey credentials must be one token68 (RFC 9110 §11.4)', 'apikey'),
};

/**
 * One failure per accepted-schemes list (a route's, fixed at start-up) and scheme tried, made on first use: the
 * same refusal object each time lets the pipeline reuse the answer built for it.
 */
const notAcceptedMade = new WeakMap<readonly Scheme[], Map<Scheme | undefined, AuthResult>>();
function notAccepted(accepted: readonly Scheme[], scheme: Scheme | undefined): AuthResult {
  let made = notAcceptedMade.get(accepted);
  if (made === undefined) {
    made = new Map();
    notAcceptedMade.set(accepted, made);
  }
  let failure = made.get(scheme);
  if (failure === undefined) {
    failure = notAcceptedFailure(accepted, scheme);
    made.set(scheme, failure);
  }
  return failure;
}

function notAcceptedFailure(accepted: readonly Scheme[], scheme: Scheme | undefined): AuthResult {
  const list = accepted.length === 0 ? 'none' : accepted.map((name) => DISPLAY[name]).join(', ');
  return authFailure(
    'scheme_not_accepted',
    `authentication scheme not accepted here; accepted: ${list}`,
    scheme,
  );
}

function checkSettings(settings: AuthSettings): void {
  const { issuer, audience, algorithms, clockToleranceSeconds } = settings;
  if (typeof issuer !== 'string' || issuer === '' || typeof audience !== 'string' || audience === '') {
    throw new TypeError('AuthSettings: issuer and audience must be non-empty strings');
  }
  if (!Array.isArray(algorithms) || algorithms.length === 0) {
    throw new TypeError('AuthSettings: algorithms must be a non-empty allow-list (RFC 8725 §3.1)');
  }
  for (const alg of algorithms) {
    // RFC 8725 §3.1 / §2.1: never `none`; never an HMAC algorithm next to public keys (key confusion).
    if (typeof alg !== 'string' || /^(none|hs\d+)$/i.test(alg)) {
      throw new TypeError(`AuthSettings: algorithm ${String(alg)} must not be allowed (RFC 8725 §3.1)`);
    }
  }
  if (!Number.isFinite(clockToleranceSeconds) || clockToleranceSeconds < 0) {
    throw new TypeError('AuthSettings: clockToleranceSeconds must be a finite number ≥ 0');
  }
}

async function loadJwks(path: string): Promise<JSONWebKeySet> {
  const jwks = JSON.parse(await readFile(path, 'utf8')) as JSONWebKeySet;
  if (!Array.isArray(jwks?.keys) || jwks.keys.length === 0)
    throw new TypeError(`${path}: not a JWKS with keys`);
  for (const jwk of jwks.keys) {
    // RFC 7518 §6.2.2, §6.3.2, §6.4.1: d, p, q … and k are private or secret members.
    if ('d' in jwk || 'k' in jwk) throw new TypeError(`${path}: the trusted JWKS must hold public keys only`);
  }
  return jwks;
}

const notString = (value: unknown): boolean => typeof value !== 'string';
const notScheme = (scheme: string): boolean => schemeNamed(scheme) !== scheme;

function checkArguments(
  headerValues: readonly string[],
  accepted: readonly Scheme[],
  now: number,
  connection: object | undefined,
): void {
  if (!Array.isArray(headerValues) || headerValues.some(notString)) {
    throw new TypeError('authenticate: headerValues must be an array of strings');
  }
  if (!Array.isArray(accepted) || accepted.some(notScheme)) {
    throw new TypeError('authenticate: accepted must list schemes among bearer, basic, apikey');
  }
  if (!Number.isFinite(now)) throw new TypeError('authenticate: now must be a finite number of milliseconds');
  if (connection !== undefined && (typeof connection !== 'object' || connection === null)) {
    throw new TypeError('authenticate: connection must be an object when given');
  }
}

/** Loads the JWKS and the identity store, then returns the authenticator. Throws TypeError on bad settings. */
export async function createAuthenticator(
  settings: AuthSettings,
  hooks: AuthenticatorHooks = {},
): Promise<Authenticator> {
  checkSettings(settings);
  const [jwks, store] = await Promise.all([
    loadJwks(settings.jwksPath),
    loadIdentityStore(settings.identitiesPath),
  ]);
  const firstHash = store.passwords.values().next().value?.hash;
  const { onSlowVerify } = hooks;
  // Same cost parameters as the stored hashes, so an unknown user takes as long as a wrong password.
  const dummyHash = await dummyPasswordHash(firstHash?.params);

  const bearer = createBearerVerifier({
    jwks,
    issuer: settings.issuer,
    audience: settings.audience,
    algorithms: settings.algorithms,
    clockToleranceSeconds: settings.clockToleranceSeconds,
    cacheSize: settings.cacheSize,
    onSlowVerify: onSlowVerify && (() => onSlowVerify('bearer')),
  });
  const basic = createBasicVerifier({
    store,
    dummyHash,
    cacheSize: settings.cacheSize,
    verify:
      onSlowVerify &&
      ((password, hash) => {
        onSlowVerify('basic', hash === dummyHash);
        return verifyPassword(password, hash);
      }),
  });
  const apikey = createApikeyVerifier(store);

  const prepared = lastPerConnection();

  function authenticate(
    headerValues: readonly string[],
    accepted: readonly Scheme[],
    now: number,
    connection?: object,
  ): AuthResult | Promise<AuthResult> {
    checkArguments(headerValues, accepted, now, connection);
    if (headerValues.length === 0) return missing;
    if (headerValues.length > 1) return duplicate;
    const value = prepared(headerValues[0] as string, connection);
    if (!value.wellFormed) return notCredentials;
    // RFC 9110 §11.1: the scheme name is case-insensitive (mock/auth/prepared.ts compares it lower-cased).
    const { scheme, token68 } = value;
    if (scheme === undefined || !accepted.includes(scheme)) return notAccepted(accepted, scheme);
    if (token68 === undefined) return malformed[scheme];
    switch (scheme) {
      case 'bearer':
        return bearer(token68, now, value.digest);
      case 'basic':
        return basic(token68, value.digest);
      case 'apikey':
        return apikey(value.digest, value.digestBytes);
    }
  }

  return { authenticate };
}
