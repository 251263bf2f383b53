import fc from 'fast-check';
import { KNOWN_SCHEMES } from '../abnf.ts';
import { validToken68 } from './validToken68.ts';

/** Longer than any credential a client has reason to send; still under the common 8 KiB field limits. */
export const OVERLONG_MIN = 4097;
export const OVERLONG_MAX = 8000;

/**
 * A known scheme with a token68 of 4,097 to 8,000 characters. The grammar sets no length (RFC 9110
 * §11.2 `token68 = 1*(…) *"="`), but no credential is that long: the target must refuse it as a client error
 * (400, 401, or 431 from RFC 6585 §5) without failing itself. Lengths stay below the 8 KiB field limits
 * of common servers, so a refusal comes as a response, not as a reset while the client is still writing.
 *
 * Built by repeating a short token68 up to the length. Shrinks towards 4,097 × `A`.
 */
export function invalidOverlongCredentials(): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.constantFrom(...KNOWN_SCHEMES),
      validToken68({ maxLength: 12 }).map((t) => t.replace(/=+$/, '') || 'A'),
      fc.integer({ min: OVERLONG_MIN, max: OVERLONG_MAX }),
    )
    .map(
      ([scheme, unit, length]) =>
        `${scheme} ${unit.repeat(Math.ceil(length / unit.length)).slice(0, length)}`,
    );
}
