/** Turns a verified JWT claims set into an Identity: `sub`, `roles`, `scope`. */
import type { JWTPayload } from 'jose';
import { type AuthFailure, authFailure } from './failures.ts';
import type { Identity } from './types.ts';

function badClaim(name: string, shape: string): AuthFailure {
  return authFailure('jwt_claim_invalid', `claim "${name}" must be ${shape}`, 'bearer');
}

/** Returns the identity, or a jwt_claim_invalid failure naming the claim whose shape is wrong. */
export function identityFromClaims(claims: JWTPayload): Identity | AuthFailure {
  // RFC 7519 §4.1.2: "sub" is a StringOrURI; the mock requires it, as Identity.id is built from it.
  const { sub, roles = [], scope = '' } = claims;
  if (typeof sub !== 'string' || sub === '') return badClaim('sub', 'a non-empty string');
  // `roles`: a private claim (RFC 7519 §4.3) holding an array of strings.
  if (!Array.isArray(roles) || !roles.every((role) => typeof role === 'string')) {
    return badClaim('roles', 'an array of strings');
  }
  // RFC 8693 §4.2: "scope" is a space-separated list of scope-tokens (RFC 6749 §3.3).
  if (typeof scope !== 'string') return badClaim('scope', 'a space-separated string');
  const scopes = scope.split(' ').filter((token) => token !== '');
  return Object.freeze({
    id: sub,
    scheme: 'bearer',
    roles: Object.freeze([...(roles as string[])]),
    scopes: Object.freeze(scopes),
  });
}
