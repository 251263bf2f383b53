/**
 * Malformed request bodies (seed §7 400; RFC 9110 §15.5.1, §15.5.14, §15.5.16): a write the writer may make,
 * with valid credentials, where only the body is broken. Never a success, never a server error. (A stack
 * trace in the answer is observed.no-stack's, at RFC 9457 §5's level, SHOULD: specs/rules/request-body.ts.)
 */

import { collectionWriter, itemPathOf, removeWithWriter } from '../kit/collection.ts';
import { forRule, test } from '../kit/fixtures.ts';
import { type Kit, need } from '../kit/kit.ts';
import { bodyNotJson, bodyWrongType, contentTypeMismatch, oversizedBody } from '../rules/request-body.ts';
import { expectStatus } from '../verdict/verify.ts';
import type { Exchange } from '../wire/http.ts';

/** The collection, the writer's credential and the sample item, or a skip naming what is missing. */
async function write(kit: Kit) {
  const writer = await collectionWriter(kit);
  const collection = need(kit.profile.endpoints.collection, 'endpoints.collection', 'no writable collection');
  return { ...writer, collection };
}

/** POSTs `body` as `contentType`; an item the target wrongly created is removed again. */
async function post(kit: Kit, body: string, contentType: string): Promise<Exchange> {
  const w = await write(kit);
  const ex = await kit.target.send({
    method: 'POST',
    path: w.path,
    body,
    headers: { Authorization: w.authorization, 'Content-Type': contentType },
  });
  const itemPath = itemPathOf(w, ex);
  if (itemPath !== undefined) await removeWithWriter(kit, w, itemPath);
  return ex;
}

test(
  'POST to the collection with a body that is not JSON, declared application/json → 400',
  forRule(bodyNotJson),
  async ({ kit }) => {
    const w = await write(kit);
    const valid = JSON.stringify(w.item);
    // RFC 8259 §2: truncated text, a trailing comma and a bare word are none of them JSON text.
    for (const [label, body] of [
      ['a truncated object', valid.slice(0, -1)],
      ['a trailing comma', `${valid.slice(0, -1)},}`],
      ['a bare word', 'gatecheck'],
    ] as const) {
      expectStatus(await post(kit, body, 'application/json'), [400], bodyNotJson, `for ${label}`);
    }
  },
);

test(
  'POST to the collection with JSON of the wrong top-level type (string, number, null) → 400 or 422',
  forRule(bodyWrongType),
  async ({ kit }) => {
    for (const [label, body] of [
      ['a JSON string', '"gatecheck"'],
      ['a JSON number', '42'],
      ['JSON null', 'null'],
    ] as const) {
      expectStatus(await post(kit, body, 'application/json'), [400, 422], bodyWrongType, `for ${label}`);
    }
  },
);

test(
  'POST to the collection with a valid JSON item declared as text/plain → 415 or 400',
  forRule(contentTypeMismatch),
  async ({ kit }) => {
    const w = await write(kit);
    const ex = await post(kit, JSON.stringify(w.item), 'text/plain');
    expectStatus(ex, [400, 415], contentTypeMismatch, 'for a JSON item declared as text/plain');
  },
);

test(
  'POST to the collection with a valid JSON item one byte over the declared size limit → 413 or 400',
  forRule(oversizedBody),
  async ({ kit }) => {
    const w = await write(kit);
    const limit = need(
      w.collection.maxBodyBytes,
      'endpoints.collection.maxBodyBytes',
      'the size limit of write bodies is not declared',
    );
    // The sample item padded with one more member, so only the size is wrong (the JSON stays valid).
    const base = JSON.stringify({ ...w.item, gatecheckPadding: '' });
    const body = `${base.slice(0, -2)}${'x'.repeat(Math.max(0, limit + 1 - base.length))}"}`;
    const ex = await post(kit, body, 'application/json');
    expectStatus(ex, [400, 413], oversizedBody, `for a ${body.length}-byte body (limit ${limit})`);
  },
);
