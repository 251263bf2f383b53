/**
 * Character classes of the grammars the fuzz arbitraries follow, each with the rule it comes from. The
 * arbitraries build values from these sets (STYLE.md: "build from constraints rather than `.filter`");
 * tests/fuzz checks the results against independent regular expressions.
 */
import { CANONICAL_SCHEME_WORDS } from '../profile/credential-maker.ts';

/** RFC 5234 Appendix B.1: ALPHA = %x41-5A / %x61-7A */
export const ALPHA = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** RFC 5234 Appendix B.1: DIGIT = %x30-39 */
export const DIGIT = '0123456789';

/** RFC 9110 §11.2: token68 = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=" (without the "=") */
export const TOKEN68_CHARS = `${ALPHA}${DIGIT}-._~+/`;

/**
 * RFC 9110 §5.6.2: tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
 *                          / DIGIT / ALPHA
 */
export const TCHAR = `!#$%&'*+-.^_\`|~${DIGIT}${ALPHA}`;

/** RFC 4648 §4: the base64 alphabet (padding "=" apart). */
export const BASE64_CHARS = `${ALPHA}${DIGIT}+/`;

/**
 * Inside `token68` (RFC 9110 §11.2), outside the base64 alphabet (RFC 4648 §4): "-", ".", "_", "~". A server
 * that checks the token68 shape and then decodes leniently (Node's Buffer skips "." and "~", reads "-" and "_"
 * as "+" and "/") lets them through; a shape check alone refuses none of them.
 */
export const TOKEN68_NOT_BASE64 = [...TOKEN68_CHARS].filter((c) => !BASE64_CHARS.includes(c)).join('');

/** RFC 5234 Appendix B.1: VCHAR = %x21-7E (visible ASCII). */
export const VCHAR = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).join(
  '',
);

/** Visible ASCII that is not a token68 character: each one breaks `token68` wherever it stands. */
export const NOT_TOKEN68_VCHAR = [...VCHAR].filter((c) => !TOKEN68_CHARS.includes(c) && c !== '=').join('');

/** RFC 5234 Appendix B.1: CTL = %x00-1F / %x7F */
export const CTL = `${Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).join('')}\x7f`;

/** RFC 9110 §5.6.3: OWS = *( SP / HTAB ) */
export const OWS_CHARS = ' \t';

/** RFC 9110 §5.5: obs-text = %x80-FF (legal in a field value, meaningless in any credential grammar). */
export const OBS_TEXT = Array.from({ length: 0x80 }, (_, i) => String.fromCharCode(0x80 + i)).join('');

/** The scheme names the seed defines (§5), in their canonical spelling (the credential maker's table). */
export const KNOWN_SCHEMES: readonly string[] = CANONICAL_SCHEME_WORDS;
