/**
 * Collections as published documents write them (cli/init/writes.ts): item paths with a trailing slash or a
 * suffix (`/{id}/`, `/{Sid}.json`) recognised and carried as `itemPath`; `writeSchemes` the schemes POST, PUT
 * and DELETE all take; the created item's id found through `allOf`, a wrapper and `…Id` names; and the suite
 * addresses the item the way `itemPath` and a dotted `idField` say (specs/kit/collection.ts, kit.ts).
 */
import { expect, test } from '@playwright/test';
import { itemPathFor, markedItem } from '../../../specs/kit/collection.ts';
import { itemId } from '../../../specs/kit/kit.ts';
import { initText } from './run-init.ts';

type Json = Record<string, unknown>;

const HEAD = `openapi: 3.0.3
info: { title: shapes, version: '1' }
servers: [{ url: 'http://127.0.0.1:9' }]
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
    basic: { type: http, scheme: basic }
security: [{ bearer: [] }, { basic: [] }]
paths:
`;
const body =
  'requestBody: { content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string } } } } } }';
const del = (name: string) =>
  `delete: { parameters: [{ name: ${name}, in: path, required: true, schema: { type: string } }], responses: { '204': { description: gone } } }`;
const answer = (schema: string) =>
  `responses: { '201': { description: created, content: { application/json: { schema: ${schema} } } } }`;

const collection = async (paths: string) =>
  (await initText(`${HEAD}${paths}`, true)).profile as Json & { endpoints: Json; todo: string[] };

test('a trailing slash (/tags/{id}/) and a suffix (/Addresses/{Sid}.json) are item paths; itemPath carries them to the suite', async () => {
  const django = await collection(`  /api/extras/tags/:
    post: { ${body}, ${answer('{ type: object, properties: { id: { type: integer } } }')} }
  /api/extras/tags/{id}/:
    ${del('id')}
`);
  expect(django.endpoints.collection).toMatchObject({
    path: '/api/extras/tags/',
    itemPath: '/api/extras/tags/{id}/',
  });
  const twilio = await collection(`  /Accounts/AC1/Addresses.json:
    post: { ${body}, ${answer('{ type: object, properties: { sid: { type: string } } }')} }
  /Accounts/AC1/Addresses/{Sid}.json:
    ${del('Sid')}
`);
  expect(twilio.endpoints.collection).toMatchObject({
    path: '/Accounts/AC1/Addresses.json',
    itemPath: '/Accounts/AC1/Addresses/{id}.json',
    idField: 'sid',
  });
  expect(itemPathFor({ path: '/api/extras/tags/', itemPath: '/api/extras/tags/{id}/' }, '7')).toBe(
    '/api/extras/tags/7/',
  );
  expect(itemPathFor({ path: '/tags/' }, 'a b')).toBe('/tags/a%20b');
});

test('writeSchemes are those POST, PUT and DELETE all accept, and the to-do names the one left out', async () => {
  const p = await collection(`  /labels:
    post: { ${body}, ${answer('{ type: object, properties: { id: { type: string } } }')} }
  /labels/{id}:
    put: { security: [{ bearer: [] }], parameters: [{ name: id, in: path, required: true, schema: { type: string } }], ${body}, responses: { '200': { description: ok } } }
    delete: { security: [{ bearer: [] }], parameters: [{ name: id, in: path, required: true, schema: { type: string } }], responses: { '204': { description: gone } } }
`);
  expect((p.endpoints.collection as Json).writeSchemes).toEqual(['bearer']);
  expect(p.todo.join('\n')).toContain('/endpoints/collection/writeSchemes: bearer — POST also accepts basic');
});

test('the id through allOf, inside a wrapper ({"data": {...}} → data.id) and under an …Id name; the suite reads a dotted idField', async () => {
  const allOf = await collection(`  /notes:
    post: { ${body}, ${answer('{ allOf: [{ type: object, properties: { id: { type: string } } }, { type: object, properties: { name: { type: string } } }] }')} }
  /notes/{id}:
    ${del('id')}
`);
  expect((allOf.endpoints.collection as Json).idField).toBeUndefined();
  expect(allOf.todo.join('\n')).not.toContain('names no id field');
  const wrapped = await collection(`  /notes:
    post: { ${body}, ${answer('{ type: object, properties: { data: { type: object, properties: { id: { type: string } } } } }')} }
  /notes/{id}:
    ${del('id')}
`);
  expect((wrapped.endpoints.collection as Json).idField).toBe('data.id');
  const orgs = await collection(`  /boards:
    post: { ${body}, ${answer('{ type: object, properties: { boardId: { type: string }, name: { type: string } } }')} }
  /boards/{id}:
    ${del('id')}
`);
  expect((orgs.endpoints.collection as Json).idField).toBe('boardId');
  expect(itemId({ status: 201, body: '{"data":{"id":"n1"}}' } as never, 'data.id')).toBe('n1');
});

test('a wrapper the schema leaves optional is filled (its required members and marker), and the suite marks the item inside it', async () => {
  const p = await collection(`  /services:
    post:
      requestBody: { content: { application/json: { schema: { type: object, properties: { service: { type: object, required: [name], properties: { name: { type: string } } } } } } } }
      ${answer('{ type: object, properties: { service: { type: object, properties: { id: { type: string } } } } }')}
  /services/{id}:
    ${del('id')}
`);
  expect((p.endpoints.collection as Json).sampleItem).toEqual({ service: { name: 'gatecheck-probe' } });
  expect((p.endpoints.collection as Json).idField).toBe('service.id');
  expect(markedItem({ service: { name: 'gatecheck-probe' } }, 'm1')).toEqual({
    service: { name: 'gatecheck-probe m1' },
  });
  expect(markedItem({ count: 1 }, 'm1')).toEqual({ count: 1, gatecheckMarker: 'm1' });
});
