/**
 * Reads a JSON object request body with a size bound. Read only by the handler stage, after credentials and
 * authorization passed: a refused request never costs the server a body read.
 */

import type { IncomingMessage } from 'node:http';
import type { JsonObject } from '../resources/types.ts';
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

export function readJsonObject(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.resolve(tooLarge(limit));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyResult): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) settle(tooLarge(limit));
      else chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => settle(parse(Buffer.concat(chunks, size))));
    req.on('error', () => settle({ ok: false, reply: undefined }));
    req.on('close', () => settle({ ok: false, reply: undefined }));
  });
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
