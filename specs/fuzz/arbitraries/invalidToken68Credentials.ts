import fc from 'fast-check';
import { KNOWN_SCHEMES, NOT_TOKEN68_VCHAR, TOKEN68_CHARS } from '../abnf.ts';
import { schemeInAnyCase } from './schemeInAnyCase.ts';

/**
 * A known scheme followed by credentials that are not a token68: a space or tab inside, `@`, `,`, a quote
 * or any other visible character outside the token68 set, or "=" before the end.
 *
 * RFC 9110 §11.2, required by RFC 6750 §2.1 (Bearer), RFC 7617 §2 (Basic) and the seed's `Apikey <key>`:
 *
 *   token68 = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
 *
 * Built as prefix + violation + suffix with a non-empty prefix and suffix, so whitespace always sits
 * inside the value (where RFC 9110 §5.5 does not strip it). Shrinks towards `Bearer A A`.
 */
export function invalidToken68Credentials(): fc.Arbitrary<string> {
  const part = fc.string({ unit: fc.constantFrom(...TOKEN68_CHARS), minLength: 1, maxLength: 24 });
  const violation = fc.oneof(
    fc.constantFrom(' ', '\t', '@', ',', '"', '='),
    fc.constantFrom(...NOT_TOKEN68_VCHAR),
  );
  return fc
    .tuple(fc.constantFrom(...KNOWN_SCHEMES).chain(schemeInAnyCase), part, violation, part)
    .map(([scheme, prefix, bad, suffix]) => `${scheme} ${prefix}${bad}${suffix}`);
}
