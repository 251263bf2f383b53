import fc from 'fast-check';
import { KNOWN_SCHEMES } from '../abnf.ts';
import { schemeInAnyCase } from './schemeInAnyCase.ts';

/**
 * A known scheme name with no credentials after it (`Bearer`, `basic`, `APIKEY `).
 *
 * RFC 9110 §11.4 allows `auth-scheme` alone in general, but each of these schemes requires its credentials:
 *
 *   RFC 6750 §2.1:  credentials = "Bearer" 1*SP b64token
 *   RFC 7617 §2:    credentials = "Basic" 1*SP token68
 *   seed §5:        Authorization: Apikey <key>
 *
 * A trailing space may follow (RFC 9110 §5.5 strips it, so the value is still the bare scheme).
 */
export function invalidSchemeOnly(): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.constantFrom(...KNOWN_SCHEMES).chain((name) => schemeInAnyCase(name)),
      fc.constantFrom('', ' ', '  '),
    )
    .map(([scheme, trail]) => `${scheme}${trail}`);
}
