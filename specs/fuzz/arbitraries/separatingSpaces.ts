import fc from 'fast-check';

/**
 * The spaces between an auth-scheme and its credentials: one or more SP, never HTAB.
 *
 * RFC 9110 §11.4:
 *
 *   credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
 *
 * Shrinks towards a single space.
 */
export function separatingSpaces(maxLength = 4): fc.Arbitrary<string> {
  return fc.integer({ min: 1, max: maxLength }).map((n) => ' '.repeat(n));
}
