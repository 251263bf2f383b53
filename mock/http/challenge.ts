/**
 * WWW-Authenticate challenges (RFC 9110 §11.6.1):
 *   challenge  = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
 *   auth-param = token BWS "=" BWS ( token / quoted-string )
 * One challenge per accepted scheme, each sent as its own field line.
 */

import type { Scheme } from '../auth/types.ts';

/** How each scheme is spelled in a challenge (scheme names are case-insensitive, RFC 9110 §11.1). */
export const SCHEME_NAMES: Readonly<Record<Scheme, string>> = {
  bearer: 'Bearer',
  basic: 'Basic',
  apikey: 'Apikey',
};

/** RFC 6750 §3.1 error codes. */
export type BearerError = 'invalid_request' | 'invalid_token' | 'insufficient_scope';

export interface ChallengeParams {
  readonly error?: BearerError;
  readonly description?: string;
  /** RFC 6750 §3: the scope needed, space-delimited. */
  readonly scope?: string;
}

/**
 * `Bearer realm="gatecheck"`, `Basic realm="gatecheck", charset="UTF-8"` (RFC 7617 §2.1: UTF-8 is the only
 * allowed charset value), `Apikey realm="gatecheck"`. `error`, `error_description` and `scope` are added to
 * Bearer (RFC 6750 §3) and to our own Apikey scheme; RFC 7617 defines no error parameter for Basic.
 */
export function challenge(scheme: Scheme, realm: string, params?: ChallengeParams): string {
  let out = `${SCHEME_NAMES[scheme]} realm=${quote(realm)}`;
  if (scheme === 'basic') return `${out}, charset="UTF-8"`;
  if (params?.error !== undefined) out += `, error="${params.error}"`;
  if (params?.description !== undefined && params.description !== '') {
    out += `, error_description=${quote(inAscii(params.description))}`;
  }
  if (params?.scope !== undefined && params.scope !== '') out += `, scope=${quote(params.scope)}`;
  return out;
}

/**
 * The reasons the mock gives are written for people and cite clauses with "§"; RFC 6750 §3 limits
 * error_description to printable ASCII, so each character outside it is spelled in ASCII ("RFC 6750 section
 * 2.1") instead of being dropped. What has no spelling here is left to quote().
 */
const ASCII_SPELLING: ReadonlyArray<readonly [RegExp, string]> = [
  [/§\s*/g, 'section '],
  [/[\u2013\u2014]/g, '-'],
  [/[\u2018\u2019\u201C\u201D"]/g, "'"],
  [/\u2026/g, '...'],
  [/\u2192/g, '->'],
  [/\u2264/g, '<='],
  [/\u2265/g, '>='],
  [/\u00D7/g, 'x'],
  [/\\/g, '/'],
];

export function inAscii(text: string): string {
  return ASCII_SPELLING.reduce((out, [pattern, spelling]) => out.replace(pattern, spelling), text);
}

/**
 * RFC 6750 §3: error, error_description and scope values MUST NOT include characters outside
 * %x20-21 / %x23-5B / %x5D-7E, which also keeps the quoted-string free of quoted-pairs. Anything else
 * (quotes, backslashes, controls, non-ASCII) becomes a space, so no input can break the header.
 */
export function quote(value: string): string {
  return `"${value.replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, ' ')}"`;
}
