import fc from 'fast-check';
import { CANONICAL_SCHEME_NAME } from '../../profile/credential-maker.ts';
import { schemeInAnyCase } from './schemeInAnyCase.ts';

/**
 * Basic credentials whose decoded text has no ":" between user-id and password.
 *
 * RFC 7617 §2:
 *
 *   user-pass = user-id ":" password
 *
 * The text is printable ASCII with every ":" replaced, base64-encoded with padding (RFC 4648 §4).
 * Shrinks towards `Basic ` + base64("").
 */
export function invalidBasicNoColon(): fc.Arbitrary<string> {
  return fc
    .tuple(
      schemeInAnyCase(CANONICAL_SCHEME_NAME.basic),
      fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 24 }),
    )
    .map(
      ([scheme, text]) => `${scheme} ${Buffer.from(text.replaceAll(':', '_'), 'utf8').toString('base64')}`,
    );
}
