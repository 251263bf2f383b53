/**
 * Reads a JSON object request body with a size bound. Read only by the handler stage, after credentials and
 * authorization passed: a refused request never costs the server a body read.
 */

import type { IncomingMessage } from 'node:http';
import type { JsonObject } from '../resources/types.ts';
import { readBoundedBody, tooLargeReply } from './bounded-body.ts';
import { problem } from './problem.ts';
import type { Reply } from './reply.ts';

/** Why a body was refused, for the request journal (`outcome`) and the defect modes that key on it. */
export type BodyFailureCode =
  | 'body_too_large'
  | 'body_incomplete'
  | 'body_empty'
  | 'body_not_utf8'
  | 'body_not_json'
  | 'body_too_deep'
  | 'body_array'
  | 'body_not_object'
  | 'body_number_out_of_range';

export type BodyResult =
  | { readonly ok: true; readonly value: JsonObject }
  /** `reply` is undefined when the client went away before the body ended: nothing to answer. */
  | { readonly ok: false; readonly code: BodyFailureCode; readonly reply: Reply | undefined };

/** Fatal: invalid UTF-8 is a malformed body, not something to repair with U+FFFD. Strips a BOM. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

const invalid = (code: BodyFailureCode, detail: string): BodyResult => ({
  ok: false,
  code,
  reply: problem('invalid-body', detail),
});

export async function readJsonObject(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const body = await readBoundedBody(req, limit);
  if (body.ok) return parse(body.bytes);
  return body.why === 'too-large'
    ? { ok: false, code: 'body_too_large', reply: tooLargeReply(req, limit) }
    : { ok: false, code: 'body_incomplete', reply: undefined };
}

/**
 * RFC 8259 §9: "An implementation may set limits on the range and precision of numbers." JSON.parse reads a
 * number beyond the double range as ±Infinity, which JSON cannot write back (it would be stored as null): such
 * a body is refused rather than changed. Precision is IEEE 754's (RFC 8259 §6).
 */
function parseFinite(text: string): { value: unknown; finite: boolean } {
  let finite = true;
  const value: unknown = JSON.parse(text, (_name, member: unknown) => {
    if (typeof member === 'number' && !Number.isFinite(member)) finite = false;
    return member;
  });
  return { value, finite };
}

function parse(raw: Buffer): BodyResult {
  if (raw.length === 0) return invalid('body_empty', 'The request body is empty; a JSON object is expected.');
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    return invalid('body_not_utf8', 'The request body is not valid UTF-8.');
  }
  let parsed: { value: unknown; finite: boolean };
  try {
    parsed = parseFinite(text);
  } catch (e) {
    // RFC 8259 §9: "An implementation may set limits on … the maximum depth of nesting": the parser's stack is
    // this one's. A limit is a refusal (400), named as such.
    if (e instanceof RangeError)
      return invalid(
        'body_too_deep',
        'The request body is nested too deeply (RFC 8259 §9: a parser may limit nesting).',
      );
    // The parser's message quotes the input; the input stays out of the answer.
    return invalid('body_not_json', 'The request body is not valid JSON.');
  }
  const { value } = parsed;
  if (Array.isArray(value))
    return invalid('body_array', 'The request body must be a JSON object, not an array.');
  if (typeof value !== 'object' || value === null)
    return invalid('body_not_object', 'The request body must be a JSON object.');
  if (!parsed.finite)
    return invalid(
      'body_number_out_of_range',
      'A number in the request body is outside the range this server stores (IEEE 754 double).',
    );
  return { ok: true, value: value as JsonObject };
}
