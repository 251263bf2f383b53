import fc from 'fast-check';
import { CANONICAL_SCHEME_NAME } from '../../profile/credential-maker.ts';
import { CTL } from '../abnf.ts';
import { schemeInAnyCase } from './schemeInAnyCase.ts';

/**
 * Basic credentials whose user-id or password holds a control character (NUL, CR, LF, TAB, ESC, DEL…),
 * base64-encoded so the header itself stays clean.
 *
 * RFC 7617 §2: "The user-id and password MUST NOT contain any control characters"; RFC 5234 B.1:
 *
 *   CTL = %x00-1F / %x7F
 *
 * Shrinks towards a NUL at the start of the user-id.
 */
export function invalidBasicControlChars(): fc.Arbitrary<string> {
  const text = fc.string({ unit: 'grapheme-ascii', maxLength: 12 }).map((s) => s.replaceAll(':', '_'));
  return fc
    .record({
      scheme: schemeInAnyCase(CANONICAL_SCHEME_NAME.basic),
      inPassword: fc.boolean(),
      before: text,
      control: fc.constantFrom(...CTL),
      after: text,
      other: text,
    })
    .map(({ scheme, inPassword, before, control, after, other }) => {
      const tainted = `${before}${control}${after}`;
      const userPass = inPassword ? `${other}:${tainted}` : `${tainted}:${other}`;
      return `${scheme} ${Buffer.from(userPass, 'utf8').toString('base64')}`;
    });
}
