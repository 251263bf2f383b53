/**
 * Reads a JSON object request body with a size bound. Read only by the handler stage, after credentials and
 * authorization passed: a refused request never costs the server a body read.
 */

import type { IncomingMessage } from 'node:http';
import type { JsonObject } from '../resources/types.ts';
import { readBoundedBody } from './bounded-body.ts';
import { problem } from './problem.ts';
import type { Reply } from './reply.ts';

export type BodyResult =
  | { readonly ok: true; readonly value: JsonObject }
  /** `reply` is undefined when the client went away before the body ended: nothing to answer. */
  | { readonly ok: false; readonly reply: Reply | undefined };

/** Fatal: invalid UTF-8 is a malformed body, not something to repair with U+FFFD. Strips a BOM. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** 413 closes the connection: the rest of the oversized body is never read. */
const tooLarge = (limit: number): BodyResult => ({
  ok: false,
  reply: problem('content-too-large', `The request body exceeds ${limit} bytes.`, { connection: 'close' }),
});

const invalid = (detail: string): BodyResult => ({ ok: false, reply: problem('invalid-body', detail) });

export async function readJsonObject(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const body = await readBoundedBody(req, limit);
  if (body.ok) return parse(body.bytes);
  return body.why === 'too-large' ? tooLarge(limit) : { ok: false, reply: undefined };
}

function parse(raw: Buffer): BodyResult {
  if (raw.length === 0) return invalid('The request body is empty; a JSON object is expected.');
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    return invalid('The request body is not valid UTF-8.');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // The parser's message quotes the input; the input stays out of the answer.
    return invalid('The request body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalid('The request body must be a JSON object.');
  }
  return { ok: true, value: value as JsonObject };
}
