/**
 * `GET /openapi.json` (docs/mock.md "The mock describes itself"): a valid OpenAPI 3.1 document, public, whose
 * operations carry the security the mock enforces — seen by asking the mock itself what each path answers
 * without credentials — and which holds no secret of the mock's identities.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { expect, test } from '@playwright/test';
import { startMock } from '../../../mock/server.ts';
import { mockForTests } from '../../helpers/mock-for-tests.ts';
import { PROFILE } from '../mock-support.ts';

type Operation = { security?: Record<string, string[]>[] };
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Record<string, unknown>> };
};

const mock = mockForTests();
let document: Document;
let text: string;

test.beforeAll(async () => {
  const response = await fetch(`${mock.url}/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('application/json');
  text = await response.text();
  document = JSON.parse(text) as Document;
});

test('GET /openapi.json without credentials → 200, an OpenAPI 3.1 document its validator accepts', async () => {
  expect(document.openapi).toBe('3.1.0');
  // Validation dereferences a copy: the document's own $refs all resolve.
  await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
});

test("the schemes are the policy's: http bearer and basic, apiKey in Authorization, oauth2 client credentials at /oauth/token", () => {
  const schemes = document.components.securitySchemes;
  expect(schemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  expect(schemes.basic).toMatchObject({ type: 'http', scheme: 'basic' });
  expect(schemes.apikey).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
  expect(schemes.oauth2).toMatchObject({
    type: 'oauth2',
    flows: {
      clientCredentials: {
        tokenUrl: '/oauth/token',
        scopes: { 'users:read': expect.any(String), 'users:write': expect.any(String) },
      },
    },
  });
});

test('each operation without a security requirement answers without credentials; each with one answers 401', async () => {
  const checked: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const get = item.get;
    if (get === undefined) continue;
    const concrete = path.replace(/\{[^}]+\}/g, '1');
    const status = (await fetch(`${mock.url}${concrete}`)).status;
    const isPublic = (get.security ?? []).length === 0;
    checked.push(`${path} ${isPublic ? 'public' : 'protected'} ${status}`);
    expect(status, path).toBe(isPublic ? 200 : 401);
  }
  expect(checked).toEqual([
    '/users public 200',
    '/users/{id} public 200',
    '/protected protected 401',
    '/admin protected 401',
    '/limited protected 401',
  ]);
});

test('roles and scopes are stated: /admin needs the admin role, writes the users:write scope', () => {
  expect(document.paths['/admin']?.get?.security).toContainEqual({ bearer: ['admin'] });
  expect(document.paths['/users']?.post?.security).toContainEqual({ oauth2: ['users:write'] });
  expect(Object.keys(document.paths['/protected'] ?? {})).toEqual(['get']);
});

test("the document holds no password, API key or token of the mock's identities", () => {
  for (const identity of Object.values(PROFILE.identities)) {
    for (const secret of [identity.bearer, identity.apikey, identity.basic?.password])
      if (typeof secret === 'string') expect(text).not.toContain(secret);
  }
});

test('an oauth2 requirement never stands for a role: /admin (role admin) lists only the bearer requirement naming it', () => {
  expect(document.paths['/admin']?.get?.security).toEqual([{ bearer: ['admin'] }]);
  expect(document.paths['/protected']?.get?.security).toContainEqual({ oauth2: [] });
});

type Extended = Document & {
  'x-gatecheck-fault'?: { headers: Record<string, string> };
  'x-gatecheck-blocked'?: {
    clients: { headers: Record<string, string>; unblockedHeaders?: Record<string, string> }[];
    closed: { path: string; method: string };
  };
  'x-gatecheck-rate-limit'?: Record<string, unknown>;
};

test('the x-gatecheck-* extensions hold on the mock itself: the fault header gets 500, each blocked client 403 and its unblocked twin 200, the closed request 403', async () => {
  const x = document as Extended;
  const basic = PROFILE.identities.admin?.basic;
  const authorization = `Basic ${Buffer.from(`${basic?.username}:${basic?.password}`).toString('base64')}`;
  const get = async (path: string, headers: Record<string, string> = {}) =>
    (await fetch(`${mock.url}${path}`, { headers: { authorization, ...headers } })).status;
  expect(await get('/protected', x['x-gatecheck-fault']?.headers)).toBe(500);
  const clients = x['x-gatecheck-blocked']?.clients ?? [];
  expect(clients.length).toBe(2);
  for (const client of clients) {
    expect(await get('/protected', client.headers)).toBe(403);
    expect(await get('/protected', client.unblockedHeaders)).toBe(200);
  }
  expect(x['x-gatecheck-blocked']?.closed).toEqual({ path: '/archive', method: 'GET' });
  expect(await get('/archive')).toBe(403);
  // The limit a client can provoke: GET /limited's quota of its own (docs/mock.md "Rate limits").
  expect(x['x-gatecheck-rate-limit']).toEqual({
    limit: 20,
    windowSeconds: 1,
    key: 'identity',
    banAfter: 20,
    banSeconds: 30,
    path: '/limited',
    method: 'GET',
  });
});

test("the JWT extension names the verifier's issuer, audience and a public key it trusts — never a private member", () => {
  const jwt = document.components.securitySchemes.bearer?.['x-gatecheck-jwt'] as Record<string, unknown>;
  expect(jwt).toMatchObject({
    issuer: PROFILE.jwt?.issuer,
    audience: PROFILE.jwt?.audience,
    algorithms: ['RS256', 'ES256'],
    publicJwk: PROFILE.jwt?.publicJwk,
    jwksUri: '/.well-known/jwks.json',
  });
  expect(Object.keys(jwt.publicJwk as object).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
});

test('a mock that ignores the fault header does not claim one', async () => {
  const quiet = await startMock({ port: 0, faults: { header: false } });
  try {
    const doc = (await (await fetch(`${quiet.url}/openapi.json`)).json()) as Extended;
    expect(doc['x-gatecheck-fault']).toBeUndefined();
    expect(doc['x-gatecheck-blocked']).toBeDefined();
  } finally {
    await quiet.close();
  }
});
