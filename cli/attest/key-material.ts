/**
 * Key material given where a file name or another value goes (`--sign-key "$(base64 -w0 vendor.key)"`): it
 * must never reach a message, since CI logs are often public (issue #42; "no secret leaves"). Recognised here:
 * a PEM block, a JSON Web Key, and one line of base64, base64url or hex whose bytes are a PEM block or exactly
 * one ASN.1 DER SEQUENCE (PKCS#8, SEC1 and SPKI keys are one: X.690 §8.1.3 definite length, tag 0x30) — plus
 * a long unbroken token that looks random (a raw seed): 64+ hex digits, or 40+ base64 characters with no '.'
 * or '/' mixing upper case, lower case and digits as random data does. A file or directory name rarely is any of these. Parsing
 * only: nothing is read or decoded beyond the value itself.
 */

const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64ISH = /^[A-Za-z0-9+/_-]+={0,2}$/;
const LONG_HEX = /^[0-9a-fA-F]{64,}$/;
const LONG_TOKEN = /^[A-Za-z0-9+_=-]{40,}$/;

/** `bytes` is one DER SEQUENCE exactly (its length octets account for every byte), or starts a PEM block. */
function decodesToKey(bytes: Buffer): boolean {
  if (bytes.subarray(0, 16).toString('latin1').includes('-----BEGIN')) return true;
  if (bytes[0] !== 0x30 || bytes.length < 2) return false;
  const first = bytes[1] as number;
  if (first < 0x80) return bytes.length === 2 + first;
  const octets = first & 0x7f;
  if (octets < 1 || octets > 3 || bytes.length < 2 + octets) return false;
  let length = 0;
  for (let i = 0; i < octets; i++) length = length * 256 + (bytes[2 + i] as number);
  return bytes.length === 2 + octets + length;
}

/**
 * Random base64 is about 40% upper case, 40% lower case and has digits (26, 26 and 10 of 64 characters); a
 * chosen name ("MCP-server-reports-2026-11-27") is mostly one case.
 */
function looksRandom(value: string): boolean {
  const share = (pattern: RegExp) => (value.match(pattern)?.length ?? 0) / value.length;
  return share(/[A-Z]/g) >= 0.2 && share(/[a-z]/g) >= 0.2 && /[0-9]/.test(value);
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
  return LONG_HEX.test(value) || (LONG_TOKEN.test(value) && looksRandom(value));
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
