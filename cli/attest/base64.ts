/**
 * Base64 as DSSE reads it (DSSE envelope v1.0.2: "Either standard or URL-safe encoding is allowed"; protocol:
 * "verifiers MUST accept either", "Reject if decoding fails"). Node's Buffer.from(…, 'base64') skips
 * characters it does not know, so a changed character could decode to the same bytes; here a text decodes
 * only when it is exactly the encoding of its bytes (RFC 4648 §3.5: canonical, no stray characters).
 */

const STANDARD = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_SAFE = /^[A-Za-z0-9_-]*={0,2}$/;

/** The bytes `text` encodes, or undefined when it is not canonical standard or URL-safe base64. */
export function decodeBase64(text: string): Buffer | undefined {
  const alphabet = STANDARD.test(text) ? 'base64' : URL_SAFE.test(text) ? 'base64url' : undefined;
  if (alphabet === undefined) return undefined;
  // Padding may be left out, but when present it makes the length a multiple of 4.
  if (text.endsWith('=') && text.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(text, alphabet);
  // Padding is optional on input; the bits after the last byte must be zero (re-encoding shows both).
  const again = bytes.toString(alphabet).replace(/=+$/, '');
  return again === text.replace(/=+$/, '') ? bytes : undefined;
}

/** Standard base64 with padding: what the DSSE reference implementation writes. */
export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}
