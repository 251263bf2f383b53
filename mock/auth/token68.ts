/**
 * The token68 syntax shared by all three schemes (RFC 9110 §11.2; RFC 6750 §2.1 calls the same set
 * `b64token`; RFC 7617 §2 puts base64 in it).
 */

/*
 * RFC 9110 §11.2:
 *   token68 = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
 */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/** True when `value` is a token68; any other character, or none at all, is not. */
export function isToken68(value: string): boolean {
  return TOKEN68.test(value);
}
