/**
 * Strict base64 (RFC 4648 §4). Node's Buffer.from(value, 'base64') is lenient: it skips characters outside
 * the alphabet, accepts the base64url alphabet and stops at the first "=", so "YWJj!!" and "YW=Jj" decode.
 * The Basic scheme needs a yes/no answer, so the shape is checked first.
 */

/*
 * RFC 4648 §4 alphabet and §3.2 padding, plus the unpadded form (§3.2 lets a specification drop padding;
 * many clients send it, so the mock accepts it):
 *   base64   = *( 4b64char ) [ 2b64char [ "==" ] / 3b64char [ "=" ] ]
 *   b64char  = ALPHA / DIGIT / "+" / "/"
 */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;
const PADDING = /=+$/;

/**
 * Decodes `value`, or returns undefined when it is not canonical base64: a character outside the alphabet,
 * misplaced or excess "=", a length that leaves a single dangling character, or non-zero pad bits
 * (RFC 4648 §3.5 lets decoders reject those; accepting them would make several encodings of one credential).
 */
export function decodeStrictBase64(value: string): Buffer | undefined {
  if (!BASE64.test(value)) return undefined;
  const bytes = Buffer.from(value, 'base64');
  if (bytes.toString('base64').replace(PADDING, '') !== value.replace(PADDING, '')) return undefined;
  return bytes;
}
