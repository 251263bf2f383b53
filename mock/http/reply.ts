/**
 * A reply is what a pipeline stage decides; `send` is the one place that writes it. Stages stay pure (easy
 * to test, easy for the request journal to record) and every response gets the same base headers.
 */

import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

export interface Reply {
  readonly status: number;
  /** Complete header object for `writeHead`, content-type and content-length included. */
  readonly headers: OutgoingHttpHeaders;
  /** Undefined for 204 and for replies without content. */
  readonly body: Buffer | undefined;
}

/**
 * On every response: CORS for browser clients (json-server allows any origin too) and the headers a browser
 * script needs to read a challenge or the allowed methods.
 */
export const BASE_HEADERS: Readonly<OutgoingHttpHeaders> = {
  'access-control-allow-origin': '*',
  // Retry-After and the rate-limit fields (mock/access/rate-limit-headers.ts) are not CORS-safelisted either.
  'access-control-expose-headers':
    'WWW-Authenticate, Allow, Content-Length, Retry-After, RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
};

export const JSON_TYPE = 'application/json; charset=utf-8';

/** A JSON reply; `value` must serialise (the engine only holds JSON data). */
export function jsonReply(status: number, value: unknown, headers?: OutgoingHttpHeaders): Reply {
  const body = Buffer.from(JSON.stringify(value) ?? 'null');
  return {
    status,
    headers: { ...BASE_HEADERS, ...headers, 'content-type': JSON_TYPE, 'content-length': body.length },
    body,
  };
}

/**
 * Writes the reply. HEAD gets the headers GET would get, content-length included, and no body
 * (RFC 9110 §9.3.2). Does nothing when the client is gone or a response has already started.
 *
 * `extra`: fields added to this answer (the rate-limit fields of a limited route); the reply's own fields win
 * over them. Everything goes out in one `writeHead` with a flat [name, value, …] list: fields set beforehand
 * with `setHeader` would make Node merge the two, validating and storing each field twice.
 */
export function send(
  res: ServerResponse,
  reply: Reply,
  head: boolean,
  extra?: Readonly<OutgoingHttpHeaders>,
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(reply.status, extra === undefined ? reply.headers : merged(reply.headers, extra));
  if (head || reply.body === undefined) res.end();
  else res.end(reply.body);
}

/** The reply's fields, then each extra field the reply does not set itself (names are lower-case in both). */
function merged(own: OutgoingHttpHeaders, extra: Readonly<OutgoingHttpHeaders>): string[] {
  const out: string[] = [];
  for (const name in extra) if (own[name] === undefined) pushField(out, name, extra[name]);
  for (const name in own) pushField(out, name, own[name]);
  return out;
}

function pushField(out: string[], name: string, value: OutgoingHttpHeaders[string]): void {
  if (value === undefined) return;
  if (Array.isArray(value)) for (const line of value) out.push(name, line);
  else out.push(name, String(value));
}
