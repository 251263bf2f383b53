import fc from 'fast-check';
import { CANONICAL_SCHEME_NAME } from '../../profile/credential-maker.ts';
import { BASE64_CHARS } from '../abnf.ts';
import { schemeInAnyCase } from './schemeInAnyCase.ts';

/**
 * Basic credentials that are token68 but not base64: a character from the base64url alphabet (`-`, `_`)
 * or another token68 character outside base64 (`.`, `~`), or a length that leaves one dangling character.
 *
 * RFC 7617 §2 puts base64 (RFC 4648 §4) in the token68:
 *
 *   base64  = *( 4b64char ) [ 2b64char [ "==" ] / 3b64char [ "=" ] ]
 *   b64char = ALPHA / DIGIT / "+" / "/"
 *
 * Shrinks towards `Basic AAA-A`.
 */
export function invalidBase64Credentials(): fc.Arbitrary<string> {
  const quads = fc
    .string({ unit: fc.constantFrom(...BASE64_CHARS), minLength: 1, maxLength: 6 })
    .map((s) => s.repeat(4));
  const foreign = fc.tuple(quads, fc.nat(), fc.constantFrom('-', '_', '.', '~')).map(([body, at, c]) => {
    const i = at % body.length;
    return `${body.slice(0, i)}${c}${body.slice(i + 1)}`;
  });
  // 4k + 1 characters: no base64 encoding ends with a single character (RFC 4648 §4).
  const dangling = fc.tuple(quads, fc.constantFrom(...BASE64_CHARS)).map(([body, c]) => `${body}${c}`);
  return fc
    .tuple(schemeInAnyCase(CANONICAL_SCHEME_NAME.basic), fc.oneof(foreign, dangling))
    .map(([scheme, credentials]) => `${scheme} ${credentials}`);
}
