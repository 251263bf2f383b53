/**
 * Writes that cannot hurt (cli/init/sample-item.ts, writes.ts): the sample item holds the required members and
 * a marker name only, each a value its schema accepts — checked with a JSON Schema validator (Ajv with
 * ajv-formats), not by eye — and never a member that grants privilege or identity; a collection whose items
 * grant access is picked only when nothing else exists, and then with a to-do.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { readOpenApi } from '../../../cli/init/read-document.ts';
import { sampleOf } from '../../../cli/init/sample-item.ts';
import { init, initText } from './run-init.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Written apart from cli/init: the members a probe must never set. */
const PRIVILEGED = /admin|superuser|staff|role|permission|privilege|owner|password|secret|scope|^groups?$/i;

function privilegedMembers(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => privilegedMembers(v, `${at}[${i}]`));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([k, v]) => [
    ...(PRIVILEGED.test(k) ? [`${at}${k}`] : []),
    ...privilegedMembers(v, `${at}${k}.`),
  ]);
}

/** An OpenAPI 3.0/3.1 Schema Object as JSON Schema Ajv compiles: cycles cut, 3.0's boolean exclusive bounds and nullable read. */
function jsonSchema(schema: unknown, seen: unknown[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((s) => jsonSchema(s, seen));
  if (!isObject(schema)) return schema;
  if (seen.includes(schema)) return {};
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) out[k] = jsonSchema(v, [...seen, schema]);
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const)
    if (typeof out[flag] === 'boolean') {
      if (out[flag] === true) out[flag] = out[bound];
      else delete out[flag];
      if (out[flag] !== undefined) delete out[bound];
    }
  if (out.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  delete out.nullable;
  return out;
}

function validator(schema: unknown) {
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, logger: false });
  // ajv-formats is CommonJS: its default export arrives as the module object under ESM.
  const addFormats = (formats as unknown as { default: typeof formats }).default ?? formats;
  (addFormats as unknown as (a: Ajv) => Ajv)(ajv);
  return ajv.compile(jsonSchema(schema) as Json);
}

/** The request body schema of `POST <path>` in the dereferenced document (the path as the profile writes it). */
function postBodySchema(doc: Json, address: string): unknown {
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [template, item] of Object.entries(paths)) {
    const pattern = new RegExp(
      `${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\\{[^}]+\\\}|\{[^}]+\}/g, '[^/]+')}$`,
    );
    if (!isObject(item) || !isObject(item.post) || !pattern.test(address)) continue;
    const body = item.post.requestBody;
    const content = isObject(body) && isObject(body.content) ? body.content : {};
    const json = Object.entries(content).find(([t]) => /json/i.test(t))?.[1];
    return isObject(json) ? (json.schema ?? {}) : {};
  }
  return undefined;
}

const CORPUS = path.join(import.meta.dirname, 'corpus');

test('on every corpus document with a collection, the sample body sets no privilege member and validates against the POST’s schema', async () => {
  const files = (await readdir(CORPUS)).filter(
    (f) => /\.(ya?ml|json)$/.test(f) && !/expected|claims/.test(f),
  );
  let checked = 0;
  for (const file of files) {
    const w = await init(path.join(CORPUS, file), true);
    const collection = (w.profile.endpoints as Json).collection;
    if (!isObject(collection)) continue;
    checked++;
    expect(privilegedMembers(collection.sampleItem), file).toEqual([]);
    const { doc } = await readOpenApi(path.join(CORPUS, file));
    const schema = postBodySchema(doc, String(collection.path));
    expect(schema, `${file}: POST ${String(collection.path)} is in the document`).toBeDefined();
    const validate = validator(schema);
    expect(validate(collection.sampleItem), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
  }
  expect(checked).toBeGreaterThanOrEqual(3);
});

const HARMFUL = `openapi: 3.0.3
info: { title: writes, version: '1' }
servers: [{ url: 'http://127.0.0.1:9' }]
components:
  securitySchemes: { bearer: { type: http, scheme: bearer } }
security: [{ bearer: [] }]
paths:
  /users:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                name: { type: string }
                email: { type: string, format: email }
                administrator: { type: boolean }
                password: { type: string }
                active: { type: boolean }
      responses: { '200': { description: ok } }
  /users/{id}:
    delete: { parameters: [{ name: id, in: path, required: true, schema: { type: string } }], responses: { '200': { description: ok } } }
  /labels:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [name, color]
              properties:
                name: { type: string }
                color: { type: string, pattern: '^#[0-9a-f]{6}$', example: '#3366ff' }
                pinned: { type: boolean }
      responses: { '200': { description: ok } }
  /labels/{id}:
    delete: { parameters: [{ name: id, in: path, required: true, schema: { type: string } }], responses: { '200': { description: ok } } }
`;

test('a collection of users is not picked while a harmless one exists; its sample would set no administrator, password or true boolean', async () => {
  const w = await initText(HARMFUL, true);
  const collection = (w.profile.endpoints as Json).collection as Json;
  expect(collection.path).toBe('/labels');
  expect(collection.sampleItem).toEqual({
    name: 'gatecheck-probe',
    color: '#3366ff',
  });
  const onlyUsers = await initText(HARMFUL.replace(/ {2}\/labels:[\s\S]*$/, ''), true);
  const users = (onlyUsers.profile.endpoints as Json).collection as Json;
  expect(users.path).toBe('/users');
  expect(users.sampleItem).toEqual({ name: 'gatecheck-probe' });
  expect(onlyUsers.profile.todo.join('\n')).toContain(
    'its items are users — they grant access or are someone',
  );
});

test('shapes: allOf merged, a required wrapper object, formats, enum, oneOf, bounds, booleans false unless required true; a required privilege member refuses', () => {
  const schema = {
    allOf: [
      { type: 'object', required: ['data'], properties: { data: { $comment: 'the item' } } },
      {
        properties: {
          data: {
            type: 'object',
            required: ['id', 'kind', 'when', 'count', 'on', 'agree', 'tags', 'shape'],
            properties: {
              id: { type: 'string', format: 'uuid' },
              kind: { type: 'string', enum: ['note', 'task'] },
              when: { type: 'string', format: 'date-time' },
              count: { type: 'integer', minimum: 3, maximum: 9 },
              on: { type: 'boolean' },
              agree: { type: 'boolean', const: true },
              tags: { type: 'array', minItems: 1, items: { type: 'string', minLength: 20 } },
              shape: { oneOf: [{ type: 'object', required: ['r'], properties: { r: { type: 'number' } } }] },
              admin: { type: 'boolean' },
            },
          },
        },
      },
    ],
  };
  const made = sampleOf(schema);
  expect('value' in made).toBe(true);
  const value = (made as { value: Json }).value;
  expect(privilegedMembers(value)).toEqual([]);
  const validate = validator(schema);
  expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
  expect((value.data as Json).on).toBe(false);
  expect((value.data as Json).agree).toBe(true);
  expect(
    sampleOf({
      type: 'object',
      required: ['name', 'role'],
      properties: { name: {}, role: { type: 'string' } },
    }),
  ).toEqual({ refused: 'role is required and grants privilege or identity; init never sets it' });
  expect(sampleOf({ type: 'string', pattern: '^#[0-9a-f]{6}$' })).toEqual({
    refused: 'the body: no value init can make matches its pattern ^#[0-9a-f]{6}$',
  });
});
