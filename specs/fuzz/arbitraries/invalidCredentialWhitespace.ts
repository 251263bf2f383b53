import fc from 'fast-check';
import { KNOWN_SCHEMES, TOKEN68_CHARS } from '../abnf.ts';

/**
 * Whitespace where the credentials grammar has none: a tab (or tab and spaces) between scheme and token,
 * a space inside the scheme name, a space before the "=" padding.
 *
 * RFC 9110 §11.4 and §11.2:
 *
 *   credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]   ; SP only, never HTAB
 *   auth-scheme = token                                            ; no whitespace inside
 *   token68     = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
 *
 * Shrinks towards `Bearer\tA`.
 */
export function invalidCredentialWhitespace(): fc.Arbitrary<string> {
  const token = fc.string({ unit: fc.constantFrom(...TOKEN68_CHARS), minLength: 1, maxLength: 24 });
  return fc
    .tuple(
      fc.constantFrom(...KNOWN_SCHEMES),
      fc.constantFrom('tab-separator', 'tab-and-space', 'space-in-scheme', 'space-before-padding'),
      token,
      fc.nat(),
    )
    .map(([scheme, where, tok, at]) => {
      switch (where) {
        case 'tab-separator':
          return `${scheme}\t${tok}`;
        case 'tab-and-space':
          return `${scheme} \t${tok}`;
        case 'space-in-scheme': {
          const i = 1 + (at % (scheme.length - 1));
          return `${scheme.slice(0, i)} ${scheme.slice(i)} ${tok}`;
        }
        default:
          return `${scheme} ${tok} =`;
      }
    });
}
