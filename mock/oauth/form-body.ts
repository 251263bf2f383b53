/**
 * Reads an `application/x-www-form-urlencoded` body (RFC 6749 §3.2: the token endpoint takes its parameters
 * in this form) with a size bound, keeping repeated names so the caller can refuse them (§3.2: "Request and
 * response parameters MUST NOT be included more than once").
 */

import type { IncomingMessage } from 'node:http';

export type FormResult =
  | { readonly ok: true; readonly params: ReadonlyMap<string, readonly string[]> }
  | { readonly ok: false; readonly why: 'too-large' | 'gone' };

export function readForm(req: IncomingMessage, limit: number): Promise<FormResult> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit)
    return Promise.resolve({ ok: false, why: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: FormResult): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) settle({ ok: false, why: 'too-large' });
      else chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => settle({ ok: true, params: parse(Buffer.concat(chunks, size).toString('utf8')) }));
    req.on('error', () => settle({ ok: false, why: 'gone' }));
    req.on('close', () => settle({ ok: false, why: 'gone' }));
  });
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
