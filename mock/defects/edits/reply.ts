/** Edits of a reply the reply defects share (mock/defects/<layer>/*.ts): header fields, bodies, challenges. */
import type { OutgoingHttpHeaders } from 'node:http';
import type { Reply } from '../../http/reply.ts';

/** The same reply with one header field set, replaced, or (value undefined) removed. */
export function withHeader(reply: Reply, name: string, value: string | string[] | undefined): Reply {
  const headers: OutgoingHttpHeaders = { ...reply.headers };
  if (value === undefined) delete headers[name];
  else headers[name] = value;
  return { ...reply, headers };
}

export function withBody(reply: Reply, body: Buffer): Reply {
  return { ...reply, headers: { ...reply.headers, 'content-length': body.length }, body };
}

/** The reply as 204 No Content: no body, no content fields (RFC 9110 §15.3.5). */
export function noContent(reply: Reply): Reply {
  const headers: OutgoingHttpHeaders = { ...reply.headers };
  delete headers['content-type'];
  delete headers['content-length'];
  return { status: 204, headers, body: undefined };
}

/** Applies `change` to the WWW-Authenticate field lines of the reply, when it has any. */
export function mapChallenges(reply: Reply, change: (values: string[]) => string[]): Reply {
  const field = reply.headers['www-authenticate'];
  if (field === undefined) return reply;
  const values = Array.isArray(field) ? field : [String(field)];
  return withHeader(reply, 'www-authenticate', change(values));
}

/** The `detail` of a problem+json body (RFC 9457 §3.1.4), or a generic one. */
export function detailOf(body: Buffer | undefined): string {
  if (body === undefined) return 'Internal Server Error';
  try {
    const value = JSON.parse(body.toString('utf8')) as { detail?: unknown };
    return typeof value.detail === 'string' ? value.detail : 'Internal Server Error';
  } catch {
    return 'Internal Server Error';
  }
}
