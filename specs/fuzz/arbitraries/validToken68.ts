import fc from 'fast-check';
import { TOKEN68_CHARS } from '../abnf.ts';

/**
 * A token68, padded or not: the credential syntax of Bearer (RFC 6750 §2.1 calls it b64token), Basic
 * (RFC 7617 §2) and, by the seed's `Apikey <key>`, Apikey.
 *
 * RFC 9110 §11.2:
 *
 *   token68 = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
 *
 * Shrinks towards `A`.
 */
export function validToken68(
  constraints: { minLength?: number; maxLength?: number } = {},
): fc.Arbitrary<string> {
  const { minLength = 1, maxLength = 48 } = constraints;
  return fc
    .tuple(
      fc.string({ unit: fc.constantFrom(...TOKEN68_CHARS), minLength: Math.max(1, minLength), maxLength }),
      fc.integer({ min: 0, max: 2 }),
    )
    .map(([body, padding]) => body + '='.repeat(padding));
}
