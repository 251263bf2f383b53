/**
 * Splits one Authorization field value into its auth-scheme and the rest (RFC 9110 §11.4). The rest is
 * checked by the scheme's own verifier, because only the scheme says whether it is token68 or auth-params.
 */

export interface ParsedAuthorization {
  /** The auth-scheme, lower-cased: RFC 9110 §11.1 "It uses a case-insensitive token". */
  readonly scheme: string;
  /** What follows the scheme and its separating spaces; undefined when nothing does. */
  readonly credentials: string | undefined;
}

/*
 * RFC 9110 §11.4, §11.1, §5.6.2:
 *   credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
 *   auth-scheme = token
 *   token       = 1*tchar
 *   tchar       = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
 *               / DIGIT / ALPHA
 * `1*SP`: several spaces after the scheme are legal; a tab is not. The part after the spaces is taken whole
 * (flag `s`: even a line break) so that junk there reaches the scheme's verifier and is refused as malformed.
 */
const CREDENTIALS = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)(?: +([^ ].*))?$/s;

/*
 * RFC 9110 §5.5: a field value does not include leading or trailing whitespace (OWS = *( SP / HTAB )).
 * An HTTP parser already strips it; this keeps direct callers consistent with what arrives on the wire.
 */
const SURROUNDING_OWS = /^[ \t]+|[ \t]+$/g;

function isOws(code: number): boolean {
  return code === 32 /* SP */ || code === 9 /* HTAB */;
}

function hasSurroundingOws(value: string): boolean {
  return value.length > 0 && (isOws(value.charCodeAt(0)) || isOws(value.charCodeAt(value.length - 1)));
}

/**
 * Parses `auth-scheme [ 1*SP rest ]`. Returns undefined when the value does not start with a token followed
 * by nothing or by spaces and more (e.g. empty, `,Bearer x`, `Bearer\tx`). Throws TypeError only when
 * `value` is not a string.
 */
export function parseAuthorization(value: string): ParsedAuthorization | undefined {
  if (typeof value !== 'string') throw new TypeError('Authorization field value must be a string');
  // The replace only when there is something to strip: a value off the wire never has any.
  const match = CREDENTIALS.exec(hasSurroundingOws(value) ? value.replace(SURROUNDING_OWS, '') : value);
  if (match === null) return undefined;
  return { scheme: (match[1] as string).toLowerCase(), credentials: match[2] };
}
