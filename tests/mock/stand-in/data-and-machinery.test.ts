/**
 * The stand-in's data and the rest of the mock's machinery (issue #43): items seeded from the document's
 * examples; POST, DELETE answer the document's own 201 (with Location) and 204; a request body checked
 * against the document's schema (400 naming the failing member); `/openapi.json` served back with servers
 * and token URL pointed at the mock; the document's `x-gatecheck-rate-limit` and the journal apply.
 */
import { expect, test } from '@playwright/test';
import { type RunningMock, startMock } from '../../../mock/server.ts';
import { STAND_IN_DOCUMENT, writeStandInDocument } from './document.ts';

let mock: RunningMock;
let admin: string;

test.beforeAll(async () => {
  const limited = {
    ...STAND_IN_DOCUMENT,
    'x-gatecheck-rate-limit': { limit: 3, windowSeconds: 30, path: '/keys/query', method: 'GET' },
  };
  mock = await startMock({ openapi: await writeStandInDocument(limited) });
  const env = await mock.standIn?.environment(Date.now());
  admin = `Bearer ${env?.find((v) => v.name === 'GATECHECK_ADMIN_BEARER')?.value}`;
});
test.afterAll(() => mock?.close());

const at = (path: string) => `${mock.url}/v2${path}`;

test('items seeded from the examples; an unknown item is 404', async () => {
  const one = await fetch(at('/pets/1'), { headers: { authorization: admin } });
  expect(one.status).toBe(200);
  expect(await one.json()).toEqual({ id: 1, name: 'Rex' });
  expect(await (await fetch(at('/pets'), { headers: { authorization: admin } })).json()).toEqual([
    { id: 1, name: 'Rex' },
  ]);
  const none = await fetch(at('/pets/404404'), { headers: { authorization: admin } });
  expect(none.status).toBe(404);
  expect(none.headers.get('content-type')).toBe('application/problem+json');
});

test('POST answers the document’s 201 with Location, DELETE its 204; the item is gone after', async () => {
  const made = await fetch(at('/pets'), {
    method: 'POST',
    headers: { authorization: admin, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bo' }),
  });
  expect(made.status).toBe(201);
  const item = (await made.json()) as { id: number; name: string };
  expect(item.name).toBe('Bo');
  expect(typeof item.id).toBe('number');
  expect(made.headers.get('location')).toBe(`/v2/pets/${item.id}`);
  expect((await fetch(at(`/pets/${item.id}`), { headers: { authorization: admin } })).status).toBe(200);
  const gone = await fetch(at(`/pets/${item.id}`), { method: 'DELETE', headers: { authorization: admin } });
  expect(gone.status).toBe(204);
  expect(await gone.text()).toBe('');
  expect((await fetch(at(`/pets/${item.id}`), { headers: { authorization: admin } })).status).toBe(404);
});

test('a body against the schema: 400 naming the failing member', async () => {
  const post = (body: unknown) =>
    fetch(at('/pets'), {
      method: 'POST',
      headers: { authorization: admin, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const missing = await post({ tag: 'x' });
  expect(missing.status).toBe(400);
  expect(((await missing.json()) as { member: string }).member).toBe('/name');
  const wrong = await post({ name: 7 });
  expect(wrong.status).toBe(400);
  const problem = (await wrong.json()) as { member: string; detail: string };
  expect(problem.member).toBe('/name');
  expect(problem.detail).toContain('must be string');
});

test('/openapi.json: the document back, servers and token URL pointed at the mock', async () => {
  const served = (await (await fetch(`${mock.url}/openapi.json`)).json()) as {
    servers: { url: string }[];
    components: { securitySchemes: { oauth: { flows: { clientCredentials: { tokenUrl: string } } } } };
    paths: Record<string, unknown>;
  };
  expect(served.servers.map((s) => s.url)).toEqual([`${mock.url}/v2`]);
  expect(served.components.securitySchemes.oauth.flows.clientCredentials.tokenUrl).toBe(
    `${mock.url}/oauth/token`,
  );
  expect(Object.keys(served.paths)).toEqual(Object.keys(STAND_IN_DOCUMENT.paths));
});

test('the document’s x-gatecheck-rate-limit: 429 past its limit on its operation only', async () => {
  const key = mock.standIn?.identities.find((id) => id.name === 'ratelimit')?.apikey;
  expect(key).toBeDefined();
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push((await fetch(at(`/keys/query?api_key=${key}`))).status);
  expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
  expect(statuses[3]).toBe(429);
  expect((await fetch(at('/health'))).status).toBe(200);
});
