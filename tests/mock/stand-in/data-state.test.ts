/**
 * The stand-in keeps the document's data as the document addresses it (issue #70), on a document shaped like
 * NetBox's, Grafana's and Forgejo's (data-document.ts): writes take effect and read back under the key the item
 * path names, unknown keys are 404, lists filter on their declared parameters and count truthfully, bodies are
 * checked even where the schema is written the OpenAPI 3.0 way, and what is not checked is said.
 */
import { expect, test } from '@playwright/test';
import { type RunningMock, startMock } from '../../../mock/server.ts';
import { compileSchema } from '../../../mock/standin/schema-validator.ts';
import { DATA_DOCUMENT } from './data-document.ts';
import { writeStandInDocument } from './document.ts';

type Json = Record<string, unknown>;

let mock: RunningMock;
let env: Record<string, string>;

test.beforeAll(async () => {
  mock = await startMock({ openapi: await writeStandInDocument(DATA_DOCUMENT) });
  env = Object.fromEntries(
    ((await mock.standIn?.environment(Date.now())) ?? []).map((v) => [v.name, v.value]),
  );
});
test.afterAll(() => mock?.close());
test.beforeEach(() => mock.standIn?.reset());

const call = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
  const res = await fetch(`${mock.url}/api${path}`, {
    method,
    headers: {
      authorization: `Token ${env.GATECHECK_ADMIN_APIKEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json =
    /json/.test(res.headers.get('content-type') ?? '') && text !== ''
      ? (JSON.parse(text) as Json)
      : undefined;
  return { status: res.status, headers: res.headers, text, json };
};

test('NetBox sites: create → read back → filter → replace → patch → delete → 404, under the integer id with its trailing slash', async () => {
  const made = await call('POST', '/dcim/sites/', { name: 'QA site', slug: 'qa-site' });
  expect(made.status).toBe(201);
  const id = made.json?.id as number;
  expect(typeof id).toBe('number');
  expect(made.headers.get('location')).toBe(`/api/dcim/sites/${id}/`);
  expect(made.json).toMatchObject({ name: 'QA site', slug: 'qa-site' });
  expect((await call('GET', `/dcim/sites/${id}/`)).json).toMatchObject({
    id,
    name: 'QA site',
    slug: 'qa-site',
  });
  const found = await call('GET', '/dcim/sites/?slug=qa-site');
  expect(found.json).toMatchObject({ count: 1, results: [{ id, slug: 'qa-site' }] });
  expect((await call('GET', '/dcim/sites/?slug=none-such')).json).toMatchObject({ count: 0, results: [] });
  const replaced = await call('PUT', `/dcim/sites/${id}/`, { name: 'QA site 2', slug: 'qa-site-2' });
  expect(replaced.json).toMatchObject({ id, name: 'QA site 2', slug: 'qa-site-2' });
  // What the server set (read-only members) stays through a replace.
  expect(replaced.json?.created).toBe(made.json?.created);
  const patched = await call('PATCH', `/dcim/sites/${id}/`, { description: 'patched' });
  expect(patched.json).toMatchObject({ id, name: 'QA site 2', description: 'patched' });
  expect((await call('GET', `/dcim/sites/${id}/`)).json).toMatchObject({ description: 'patched' });
  expect((await call('DELETE', `/dcim/sites/${id}/`)).status).toBe(204);
  const gone = await call('GET', `/dcim/sites/${id}/`);
  expect(gone.status).toBe(404);
  expect(gone.headers.get('content-type')).toBe('application/problem+json');
  expect((await call('GET', '/dcim/sites/999999/')).status).toBe(404);
  expect((await call('PATCH', '/dcim/sites/999999/', { description: 'x' })).status).toBe(404);
  expect((await call('DELETE', '/dcim/sites/999999/')).status).toBe(404);
});

test('keys as the document names them: a folder under the uid the server names, an organisation under the name its create carried', async () => {
  const folder = await call('POST', '/folders', { title: 'QA folder' });
  expect(folder.status).toBe(200);
  const uid = folder.json?.uid as string;
  expect(uid).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
  expect(folder.headers.get('location')).toBe(`/api/folders/${uid}`);
  expect((await call('GET', `/folders/${uid}`)).json).toMatchObject({ uid, title: 'QA folder' });
  expect(((await call('GET', '/folders')).json as unknown as Json[]).map((f) => f.uid)).toContain(uid);
  // A search beside the list finds it too (the query matches any string member).
  const found = (await call('GET', '/folders/search?query=qa%20fold')).json as unknown as Json[];
  expect(found.map((f) => f.uid)).toEqual([uid]);

  const org = await call('POST', '/orgs', { username: 'qa-org' });
  expect(org.status).toBe(201);
  expect(org.headers.get('location')).toBe('/api/orgs/qa-org');
  expect((await call('GET', '/orgs/qa-org')).json).toMatchObject({ username: 'qa-org' });
  expect((await call('PATCH', '/orgs/qa-org', { full_name: 'QA Org' })).json).toMatchObject({
    username: 'qa-org',
    full_name: 'QA Org',
  });
  // A name taken: the document declares 422 (and no 409) for this create.
  const again = await call('POST', '/orgs', { username: 'qa-org' });
  expect(again.status).toBe(422);
  expect(again.json?.member).toBe('/username');
  expect((await call('GET', '/orgs/no-such-org')).status).toBe(404);
});

test('lists: the seeds are the items at their item paths; created items appear; count, next and previous tell the truth; q searches', async () => {
  const seeded = (await call('GET', '/dcim/sites/')).json as { count: number; results: Json[] };
  expect(seeded.count).toBe(seeded.results.length);
  expect(seeded.results.length).toBeGreaterThan(0);
  for (const site of seeded.results)
    expect((await call('GET', `/dcim/sites/${site.id}/`)).json).toEqual(site);
  await call('POST', '/dcim/sites/', { name: 'Findable', slug: 'findable' });
  const all = (await call('GET', '/dcim/sites/')).json as { count: number; results: Json[] };
  expect(all.count).toBe(seeded.count + 1);
  const first = (await call('GET', '/dcim/sites/?limit=1')).json as Json;
  expect(first).toMatchObject({ count: all.count, previous: null });
  expect(String(first.next)).toContain('offset=1');
  const last = (await call('GET', `/dcim/sites/?limit=1&offset=${all.count - 1}`)).json as Json;
  expect(last).toMatchObject({ next: null, results: [{ slug: 'findable' }] });
  expect(String(last.previous)).toContain(`offset=${all.count - 2}`);
  expect((await call('GET', '/dcim/sites/?q=FINDA')).json).toMatchObject({
    count: 1,
    results: [{ name: 'Findable' }],
  });
});

test('a body the schema refuses is 400, where the schema is written the OpenAPI 3.0 way (boolean exclusiveMaximum, nullable)', async () => {
  const missing = await call('POST', '/dcim/sites/', { name: 'QA site' });
  expect(missing.status).toBe(400);
  expect(missing.json?.member).toBe('/slug');
  const bound = await call('POST', '/dcim/sites/', { name: 'QA', slug: 'qa', latitude: 90 });
  expect(bound.status).toBe(400);
  expect(bound.json?.member).toBe('/latitude');
  expect((await call('POST', '/dcim/sites/', { name: 'QA', slug: 'qa', latitude: null })).status).toBe(201);
  expect((await call('POST', '/dcim/sites/', { name: 'QA', slug: 'not a slug' })).status).toBe(400);
});

test('what the mock does not check is said: the operation and why in the stand-in’s list, each request in the journal', async () => {
  expect(mock.standIn?.unvalidated).toEqual([
    {
      operation: 'POST /api/uploads',
      reason: 'its body is multipart/form-data, which the mock does not check',
      partly: false,
    },
  ]);
  const upload = await fetch(`${mock.url}/api/uploads`, {
    method: 'POST',
    headers: {
      authorization: `Token ${env.GATECHECK_ADMIN_APIKEY}`,
      'content-type': 'multipart/form-data; boundary=x',
    },
    body: '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nhello\r\n--x--\r\n',
  });
  expect(upload.status).toBe(204);
  const journal = await fetch(`${mock.url}/__gatecheck/journal?outcome=body_not_validated`, {
    headers: { authorization: `Bearer ${mock.control?.token}` },
  });
  const entries = ((await journal.json()) as { entries: Json[] }).entries;
  expect(entries.at(-1)).toMatchObject({ path: '/api/uploads', outcome: 'body_not_validated' });
});

test('data passes the document’s own schemas: every list and item answer (a tag color of six hex digits, URIs, date-times)', async () => {
  const schemas = DATA_DOCUMENT.components.schemas;
  const valid = (schema: object, value: unknown) => {
    const { validate } = compileSchema(schema, '3.0', true);
    expect(validate?.(value), JSON.stringify(validate?.errors)).toBe(true);
  };
  for (const [path, schema] of [
    ['/dcim/sites/', schemas.Site],
    ['/extras/tags/', schemas.Tag],
  ] as const) {
    const list = (await call('GET', path)).json as { results: Json[] };
    for (const item of list.results) {
      valid(schema, item);
      valid(schema, (await call('GET', `${path}${item.id}/`)).json);
    }
  }
  const tag = ((await call('GET', '/extras/tags/')).json as { results: Json[] }).results[0];
  expect(tag?.color).toMatch(/^[0-9a-f]{6}$/);
});

test('media types: a text/plain health check answers text, a CSV export the items as CSV', async () => {
  const health = await call('GET', '/health');
  expect(health.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  expect(health.text).toBe('OK');
  const csv = await call('GET', '/dcim/sites/export/');
  expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  const [header, ...rows] = csv.text.trimEnd().split('\r\n');
  expect(header?.split(',')).toEqual(expect.arrayContaining(['id', 'name', 'slug']));
  expect(rows.length).toBe(((await call('GET', '/dcim/sites/')).json as { count: number }).count);
});

test('a login checks the pair: a wrong password is the document’s 401, the right one a token the protected routes take', async () => {
  const wrong = await call(
    'POST',
    '/login',
    { user: 'gatecheck-admin', password: 'wrong' },
    { authorization: '' },
  );
  expect(wrong.status).toBe(401);
  expect(wrong.headers.get('content-type')).toBe('application/problem+json');
  const right = await call(
    'POST',
    '/login',
    { user: 'gatecheck-user', password: env.GATECHECK_USER_PASSWORD as string },
    { authorization: '' },
  );
  expect(right.status).toBe(200);
  const token = right.json?.token as string;
  const sites = await call('GET', '/dcim/sites/', undefined, { authorization: `Token ${token}` });
  expect(sites.status).toBe(200);
});

test('a body nested deeper than the mock stores, valid by its schema, is a 400 — never a 5xx on a later read', async () => {
  const deep = `{"name":"Deep","slug":"deep","description":"d","tags":[],"latitude":1,"x":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
  const res = await fetch(`${mock.url}/api/dcim/sites/`, {
    method: 'POST',
    headers: { authorization: `Token ${env.GATECHECK_ADMIN_APIKEY}`, 'content-type': 'application/json' },
    body: deep,
  });
  expect(res.status).toBe(400);
  expect(((await res.json()) as Json).detail).toContain('nested more than');
  // The CSV export writes every member of every item: it would meet the depth had the body been stored.
  expect((await call('GET', '/dcim/sites/export/')).status).toBe(200);
});
