import fc from 'fast-check';

/**
 * An auth-scheme name in any letter case: `Bearer`, `bEARER`, `BEARER`, …
 *
 * RFC 9110 §11.1: "It uses a case-insensitive token to identify the authentication scheme".
 *
 *   auth-scheme = token
 *
 * Shrinks towards `name` as given (fast-check's mixedCase shrinks the case flips away).
 */
export function schemeInAnyCase(name: string): fc.Arbitrary<string> {
  return fc.mixedCase(fc.constant(name));
}
