/**
 * The Bearer scheme (RFC 6750 §2.1) carrying a JWT (RFC 7519), verified with jose against the local JWKS.
 * Verification policy, after RFC 8725 (JWT BCP):
 * - §3.1 an explicit algorithm allow-list (RS256, ES256): `none` in any spelling and HS256 signed with the
 *   public key (key confusion) are refused before any key is used;
 * - §3.8/§3.9 `iss` and `aud` must match;
 * - `exp` and `sub` are required, as in the JWT access-token profile (RFC 9068 §2.2): RFC 7519 §4.1.4
 *   makes `exp` optional and jose checks it only when present, but a stateless verifier could never retire a
 *   token without an end of life; `sub` names the identity;
 * - RFC 7515 §4.1.11 unknown `crit` extensions are refused (jose's default);
 * - keys come only from the local JWKS: `jwk`, `jku`, `x5u` headers are ignored;
 * - `typ` is not checked: explicit typing (RFC 8725 §3.11) separates kinds of JWT an issuer makes, and the
 *   mock's issuer makes one kind.
 */
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import { type AuthFailure, authFailure } from './failures.ts';
import { joseFailure } from './jose-errors.ts';
import { identityFromClaims } from './jwt-claims.ts';
import type { AuthResult, Identity } from './types.ts';
import { createVerifiedCache } from './verified-cache.ts';

export interface BearerVerifierOptions {
  readonly jwks: JSONWebKeySet;
  readonly issuer: string;
  readonly audience: string;
  readonly algorithms: readonly string[];
  readonly clockToleranceSeconds: number;
  readonly cacheSize: number;
  /** Called before each signature verification (the slow path); tests count cache misses with it. */
  readonly onSlowVerify?: () => void;
}

/**
 * Verifies the token68 after `Bearer ` (already checked to be token68) at `now` (ms since the epoch): at once
 * for a token verified before, a promise when its signature must be checked. `digest`: the token's SHA-256,
 * which the authenticator has made (mock/auth/prepared.ts): the key of the verified-token cache.
 */
export type BearerVerifier = (token: string, now: number, digest: string) => AuthResult | Promise<AuthResult>;

interface VerifiedToken {
  readonly identity: Identity;
  readonly exp: number;
  readonly nbf: number | undefined;
}

/** The time checks jose makes (jose src/lib/jwt_claims_set.ts), repeated on every cache hit. */
function timeFailure(token: VerifiedToken, nowSeconds: number, tolerance: number): AuthFailure | undefined {
  // RFC 7519 §4.1.5: not before "nbf", give or take the leeway.
  if (token.nbf !== undefined && token.nbf > nowSeconds + tolerance) {
    return authFailure(
      'jwt_not_yet_valid',
      `token is not valid yet for another ${token.nbf - nowSeconds} s`,
      'bearer',
    );
  }
  // RFC 7519 §4.1.4: not "on or after" "exp", give or take the leeway.
  if (token.exp <= nowSeconds - tolerance) {
    return authFailure('jwt_expired', `token expired ${nowSeconds - token.exp} s ago`, 'bearer');
  }
  return undefined;
}

export function createBearerVerifier(options: BearerVerifierOptions): BearerVerifier {
  const { issuer, audience, clockToleranceSeconds: tolerance, onSlowVerify } = options;
  const algorithms = [...options.algorithms];
  const keys = createLocalJWKSet(options.jwks);
  // Successes only, keyed by SHA-256 of the token. A hit re-checks exp/nbf, so caching never extends a
  // token's life; everything else verified (signature, iss, aud, claims) cannot change for the same token.
  const cache = createVerifiedCache<VerifiedToken>(options.cacheSize);

  const verify = async (token: string, now: number, nowSeconds: number, key: string): Promise<AuthResult> => {
    onSlowVerify?.();
    let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
    try {
      ({ payload } = await jwtVerify(token, keys, {
        algorithms,
        issuer,
        audience,
        clockTolerance: tolerance,
        currentDate: new Date(now),
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (error) {
      return joseFailure(error, nowSeconds, algorithms);
    }
    const identity = identityFromClaims(payload);
    if ('ok' in identity) return identity;
    // jose has checked that exp (required) and nbf (if present) are numbers.
    cache.set(key, { identity, exp: payload.exp as number, nbf: payload.nbf });
    return { ok: true, identity };
  };

  return (token, now, key) => {
    // jose's NumericDate arithmetic is in whole seconds (RFC 7519 §2).
    const nowSeconds = Math.floor(now / 1000);
    const hit = cache.get(key);
    if (hit === undefined) return verify(token, now, nowSeconds, key);
    return timeFailure(hit, nowSeconds, tolerance) ?? { ok: true, identity: hit.identity };
  };
}
