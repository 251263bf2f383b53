/**
 * Key material given where a file name or another value goes (`--sign-key "$(base64 -w0 vendor.key)"`): it
 * must never reach a message, since CI logs are often public (issue #42; "no secret leaves"). Recognised here:
 * a PEM block, a JSON Web Key, and one line of base64, base64url or hex whose bytes are a PEM block or an
 * ASN.1 DER SEQUENCE (PKCS#8, SEC1, SPKI all start with one: X.690 §8.9, tag 0x30) — plus any long unbroken
 * run of those alphabets without a '/', which a file name or a number rarely is. Parsing only: nothing is read or decoded
 * beyond the value itself.
 */

/**
 * A file name is rarely this long without a dot, a space or a '/' (a raw seed in base64url or hex is). A path
 * ('/' in it) is left to the decoding checks: /tmp/gatecheck-Ab12Cd/vendor is all base64 characters.
 */
const LONG_TOKEN = /^[A-Za-z0-9+_=-]{40,}$/;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64ISH = /^[A-Za-z0-9+/_-]+={0,2}$/;

function decodesToKey(bytes: Buffer): boolean {
  return bytes[0] === 0x30 || bytes.subarray(0, 16).toString('latin1').includes('-----BEGIN');
}

export function looksLikeKeyMaterial(raw: string): boolean {
  const value = raw.trim();
  if (value.includes('\n') || value.includes('-----BEGIN') || value.includes('PRIVATE KEY')) return true;
  if (value.startsWith('{') || /"kty"|"d"\s*:/.test(value)) return true;
  if (value.length < 40) return false;
  if (HEX.test(value) && decodesToKey(Buffer.from(value, 'hex'))) return true;
  if (BASE64ISH.test(value)) {
    const standard = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (decodesToKey(standard)) return true;
  }
  return LONG_TOKEN.test(value);
}

/**
 * How a message names a value the user gave: quoted as given, or — when it may be key material — only its
 * length (a message repeats no byte of a key).
 */
export function shownValue(raw: string): string {
  return looksLikeKeyMaterial(raw)
    ? `a value of ${raw.length} characters (not repeated here: it looks like key material)`
    : JSON.stringify(raw);
}

/** The forms a key option accepts, for every refusal of a key option. */
export const KEY_FORMS = 'a key file (PEM or JWK) or env:NAME (a variable holding the key)';
