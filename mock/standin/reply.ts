/**
 * A success answer written in the chosen media type (media.ts): 204, and an answer with nothing to say, carry
 * no content (RFC 9110 §15.3.5); otherwise the value serialised with its Content-Type and Content-Length.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import { BASE_HEADERS, type Reply } from '../http/reply.ts';
import { type MediaType, serialize } from './media.ts';

export function answerReply(
  status: number,
  media: MediaType | undefined,
  value: unknown,
  headers?: OutgoingHttpHeaders,
): Reply {
  if (status === 204 || status === 304 || value === undefined)
    return {
      status,
      headers: { ...BASE_HEADERS, ...headers, ...(status === 204 ? {} : { 'content-length': 0 }) },
      body: undefined,
    };
  const { type, body } = serialize(media, value);
  return {
    status,
    headers: { ...BASE_HEADERS, ...headers, 'content-type': type, 'content-length': body.length },
    body,
  };
}

/** `value` inside its wrapper member (`{"article": value}`), or as it is. */
export function wrapped(value: unknown, wrap: string | undefined): unknown {
  return wrap === undefined ? value : { [wrap]: value };
}
