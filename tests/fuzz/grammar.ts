/**
 * The target-side grammars, written independently of specs/fuzz/abnf.ts, to judge what the arbitraries
 * generate. Each RegExp carries the ABNF it implements.
 */

// RFC 9110 §11.2: token68 = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
export const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

// RFC 9110 §5.6.2: token = 1*tchar
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

// RFC 9110 §11.4 with token68 credentials: credentials = auth-scheme [ 1*SP token68 ]
export const CREDENTIALS_TOKEN68 = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+(?: +[A-Za-z0-9\-._~+/]+=*)?$/;

// RFC 6750 §2.1 / RFC 7617 §2 / seed §5, scheme case-insensitive (RFC 9110 §11.1)
export const BEARER = /^bearer +[A-Za-z0-9\-._~+/]+=*$/i;
export const BASIC = /^basic +[A-Za-z0-9\-._~+/]+=*$/i;
export const APIKEY = /^apikey +[A-Za-z0-9\-._~+/]+=*$/i;

// RFC 4648 §4, padded: base64 = *( 4b64char ) [ 2b64char "==" / 3b64char "=" ]
export const BASE64_PADDED = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

// RFC 5234 B.1: CTL = %x00-1F / %x7F; with the C1 controls RFC 8265 profiles also exclude
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this grammar is about.
export const CONTROL = /[\x00-\x1f\x7f-\x9f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this grammar is about.
export const CTL = /[\x00-\x1f\x7f]/;

// RFC 9110 §5.5: field-value = *field-content, field-vchar = VCHAR / obs-text, SP / HTAB inside
export const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

// RFC 9110 §5.6.3: OWS = *( SP / HTAB ), stripped around a field value (§5.5)
export function stripOws(value: string): string {
  return value.replace(/^[ \t]+|[ \t]+$/g, '');
}

/** Whether `value` is a well-formed credential of one of the seed's three schemes. */
export function isSchemeCredential(value: string): boolean {
  const v = stripOws(value);
  return BEARER.test(v) || BASIC.test(v) || APIKEY.test(v);
}

/** RFC 7617 §2 decoding: strict padded base64 of UTF-8 `user-id ":" password`. */
export function decodeBasic(value: string): { userId: string; password: string } | undefined {
  const match = /^basic +(\S+)$/i.exec(stripOws(value));
  if (!match || !BASE64_PADDED.test(match[1] as string)) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(match[1] as string, 'base64'));
  } catch {
    return undefined;
  }
  const colon = text.indexOf(':');
  return colon < 0 ? undefined : { userId: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** A credential a server could verify: Bearer or Apikey token68, or Basic decoding to a user-pass without CTL. */
export function isWellFormedCredential(value: string): boolean {
  const v = stripOws(value);
  if (BEARER.test(v) || APIKEY.test(v)) return true;
  const basic = decodeBasic(v);
  return basic !== undefined && !CTL.test(basic.userId) && !CTL.test(basic.password);
}
