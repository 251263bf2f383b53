/**
 * Whether a write body is declared as JSON (RFC 9110 §8.3 Content-Type). `application/json` (RFC 8259 §11)
 * and any `+json` structured syntax suffix (RFC 6838 §4.2.8) are JSON, in any letter case and with any
 * parameters; a body sent without Content-Type is read as JSON, as json-server does (RFC 9110 §8.3: the
 * recipient may assume a type). Anything else is a format this resource does not take: 415
 * (RFC 9110 §15.5.16).
 */

/** `type "/" subtype` before any parameter (RFC 9110 §8.3.1), lower-cased and trimmed. */
function essence(value: string): string {
  const semicolon = value.indexOf(';');
  return (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
}

export function declaresJson(contentType: string | undefined): boolean {
  if (contentType === undefined) return true;
  const type = essence(contentType);
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}
