/**
 * Reads an `application/x-www-form-urlencoded` body (RFC 6749 §3.2: the token endpoint takes its parameters
 * in this form) with a size bound, keeping repeated names so the caller can refuse them (§3.2: "Request and
 * response parameters MUST NOT be included more than once").
 */

import type { IncomingMessage } from 'node:http';
import { readBoundedBody } from '../http/bounded-body.ts';

export type FormResult =
  | { readonly ok: true; readonly params: ReadonlyMap<string, readonly string[]> }
  | { readonly ok: false; readonly why: 'too-large' | 'gone' };

export async function readForm(req: IncomingMessage, limit: number): Promise<FormResult> {
  const body = await readBoundedBody(req, limit);
  return body.ok ? { ok: true, params: parse(body.bytes.toString('utf8')) } : body;
}

function parse(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(text)) {
    const list = out.get(name);
    if (list === undefined) out.set(name, [value]);
    else list.push(value);
  }
  return out;
}
