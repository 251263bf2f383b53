/**
 * Reads a request body whole, with a size bound, by raw-body (the body reader under Express's body-parser):
 * a declared Content-Length over the bound is refused before a byte is read, a body that grows past it is
 * cut off. The JSON bodies of the data routes and the control API, and the token endpoint's form body, all
 * come through here.
 */

import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import { continueBody } from './expect.ts';
import { problem } from './problem.ts';
import type { Reply } from './reply.ts';

export type BoundedBody =
  | { readonly ok: true; readonly bytes: Buffer }
  /** `too-large`: over the bound (the caller answers 413); `gone`: the client went away mid-body. */
  | { readonly ok: false; readonly why: 'too-large' | 'gone' };

export async function readBoundedBody(req: IncomingMessage, limit: number): Promise<BoundedBody> {
  // A declared length over the bound is refused before a byte is read: no `100 Continue` for it.
  const declared = Number(req.headers['content-length'] ?? 0);
  if (!(declared > limit)) continueBody(req);
  try {
    const bytes = await getRawBody(req, { limit, length: req.headers['content-length'] });
    return { ok: true, bytes };
  } catch (error) {
    const type = (error as { type?: unknown }).type;
    return { ok: false, why: type === 'entity.too.large' ? 'too-large' : 'gone' };
  }
}

/**
 * A refused body of at most this many declared bytes is read to its end and dropped (Node's server does so for
 * a body its handler left unread) and the connection stays open. RFC 9112 §9.6: a server that closes while
 * the client is still sending makes TCP reset the connection, and the client — or a proxy in front, which then
 * answers 502 (seen with nginx here) — may lose the 413 itself.
 */
const DRAINED_BYTES = 1024 * 1024;

/**
 * The 413 for a body over `limit`, for every reader of this file. A declared length up to DRAINED_BYTES is
 * drained; a larger or unknown one (chunked) closes the connection, and the rest of the body is never read.
 */
export function tooLargeReply(req: IncomingMessage, limit: number): Reply {
  const declared = req.headers['content-length'];
  const length = declared === undefined ? Number.NaN : Number(declared);
  const drained = Number.isSafeInteger(length) && length <= DRAINED_BYTES;
  return problem(
    'content-too-large',
    `The request body exceeds ${limit} bytes.`,
    drained ? undefined : { connection: 'close' },
  );
}
