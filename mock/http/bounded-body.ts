/**
 * Reads a request body whole, with a size bound, by raw-body (the body reader under Express's body-parser):
 * a declared Content-Length over the bound is refused before a byte is read, a body that grows past it is
 * cut off. The JSON bodies of the data routes and the control API, and the token endpoint's form body, all
 * come through here.
 */

import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';

export type BoundedBody =
  | { readonly ok: true; readonly bytes: Buffer }
  /** `too-large`: over the bound (the caller answers 413); `gone`: the client went away mid-body. */
  | { readonly ok: false; readonly why: 'too-large' | 'gone' };

export async function readBoundedBody(req: IncomingMessage, limit: number): Promise<BoundedBody> {
  try {
    const bytes = await getRawBody(req, { limit, length: req.headers['content-length'] });
    return { ok: true, bytes };
  } catch (error) {
    const type = (error as { type?: unknown }).type;
    return { ok: false, why: type === 'entity.too.large' ? 'too-large' : 'gone' };
  }
}
