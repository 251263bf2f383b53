/**
 * Forms published documents use that the stand-in reads as init does (issue #43, the corpus's PagerDuty): a
 * key sent as an auth-param whose value is a bare token (`Token token=<key>`, RFC 9110 §11.2: `auth-param =
 * token BWS "=" BWS ( token / quoted-string )`), and a created item's id inside a wrapper
 * (`{"business_service": {"id": …}}`, init's dotted idField), kept by a PUT and addressed by its item path.
 */
import { expect, test } from '@playwright/test';
import { type RunningMock, startMock } from '../../../mock/server.ts';
import { writeStandInDocument } from './document.ts';

const WRAPPED = {
  type: 'object',
  properties: {
    service: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
  },
};

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'wrapped ids, Token token=', version: '1' },
  servers: [{ url: 'https://api.example/' }],
  security: [{ api_key: [] }],
  components: {
    securitySchemes: {
      api_key: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: 'The API key, in the format Token token=<API_KEY>',
      },
    },
  },
  paths: {
    '/services': {
      post: {
        requestBody: { required: true, content: { 'application/json': { schema: WRAPPED } } },
        responses: { '201': { description: 'made', content: { 'application/json': { schema: WRAPPED } } } },
      },
    },
    '/services/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        responses: { '200': { description: 'it', content: { 'application/json': { schema: WRAPPED } } } },
      },
      put: {
        requestBody: { required: true, content: { 'application/json': { schema: WRAPPED } } },
        responses: { '200': { description: 'it', content: { 'application/json': { schema: WRAPPED } } } },
      },
      delete: { responses: { '204': { description: 'gone' } } },
    },
  },
};

let mock: RunningMock;
let key: string;

test.beforeAll(async () => {
  mock = await startMock({ openapi: await writeStandInDocument(DOCUMENT) });
  key = (mock.standIn?.identities.find((i) => i.name === 'admin')?.apikey ?? '') as string;
});
test.afterAll(() => mock?.close());

test('`Token token=<key>`: the bare token and the quoted-string forms pass, a wrong key is 401, no parameter is 400', async () => {
  const send = (authorization: string) => fetch(`${mock.url}/services/none`, { headers: { authorization } });
  expect((await send(`Token token=${key}`)).status).toBe(404);
  expect((await send(`token token="${key}"`)).status).toBe(404);
  expect((await send(`Token token=${key.slice(0, -1)}x`)).status).toBe(401);
  expect((await send(`Token ${key}`)).status).toBe(400);
});

test('an id inside a wrapper: POST puts it there, the item path finds it, a PUT keeps it', async () => {
  const headers = { authorization: `Token token=${key}`, 'content-type': 'application/json' };
  const made = await fetch(`${mock.url}/services`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ service: { name: 'gatecheck-probe' } }),
  });
  expect(made.status).toBe(201);
  const body = (await made.json()) as { service: { id: string; name: string } };
  expect(body.service.name).toBe('gatecheck-probe');
  expect(made.headers.get('location')).toBe(`/services/${body.service.id}`);
  const put = await fetch(`${mock.url}/services/${body.service.id}`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ service: { name: 'renamed' } }),
  });
  expect(await put.json()).toEqual({ service: { name: 'renamed', id: body.service.id } });
  const read = await fetch(`${mock.url}/services/${body.service.id}`, { headers });
  expect(((await read.json()) as typeof body).service.id).toBe(body.service.id);
});
