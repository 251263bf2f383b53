/**
 * What one fuzz case sends. Header values are "byte strings": one character per octet (latin1), so a value
 * can hold CR, LF, NUL or obs-text exactly as they go on the wire (the raw-socket client sends them as is).
 */

/** Which of the profile's endpoints a case is sent to. */
export type EndpointRole = 'public' | 'protected' | 'admin';

export interface FuzzRequest {
  /** The arbitrary that produced the case (e.g. `invalidToken68Credentials`), shown in reports. */
  readonly kind: string;
  /** Authorization field lines in order; `[]` sends none. Each is a byte string (chars U+0000–U+00FF). */
  readonly authorization: readonly string[];
  /** A query string to append (without "?"), e.g. `access_token=…` for the token-sent-twice case. */
  readonly query?: string;
  /** Where to send it when not the property's default endpoint (JWT escalations go to the admin path). */
  readonly endpoint?: EndpointRole;
}

/** One Authorization line, no query, default endpoint. */
export function authorizationCase(kind: string, value: string): FuzzRequest {
  return { kind, authorization: [value] };
}
