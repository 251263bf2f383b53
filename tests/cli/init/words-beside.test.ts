/**
 * Issue #69: init reads the words beside the ones it knows. One small document per class the issue found on
 * ten published documents, each using the document's own sentence (tests/cli/init/documents/*-3.1.yaml, with
 * the facts written down by hand in `*.claims.json` beside it): the expected profile, valid against the schema,
 * and 0 unfounded claims (claims.ts), 0 missed facts, 0 wrong picks (claims-table.ts `judge`). Then what each
 * class must show, asserted on its own.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { readOpenApi } from '../../../cli/init/read-document.ts';
import { schemaValidator } from '../../../shared/json-schema.ts';
import { unfoundedClaims } from './claims.ts';
import { type Facts, judge } from './claims-table.ts';
import { init, initText, type Written } from './run-init.ts';

const DOCUMENTS = path.join(import.meta.dirname, 'documents');
const SCHEMA = path.join(import.meta.dirname, '../../../fixtures/schemas/profile.schema.json');

/** Document, and the class of issue #69 it stands for. */
const CLASSES = [
  ['key-alone-3.1.yaml', 'a key sent with no word before it'],
  ['prose-public-3.1.yaml', 'prose that overrides security'],
  ['admin-in-words-3.1.yaml', 'admin stated in words, on tags or in summaries'],
  ['server-warnings-3.1.yaml', 'server words that warn'],
  ['what-it-does-3.1.yaml', 'picks that names do not reveal'],
  ['writes-without-authorization-3.1.yaml', 'a to-do that gives the reason that decided'],
] as const;

const documentOf = (file: string) => path.join(DOCUMENTS, file);
const todoLine = (w: Written, start: string) => w.profile.todo.find((t) => t.startsWith(start)) ?? '';

for (const [file, kind] of CLASSES)
  test(`${kind} (${file}) → the expected profile, valid; 0 unfounded claims, 0 missed facts, 0 wrong picks`, async () => {
    const written = await init(documentOf(file), true);
    const expected = file.replace(/\.(yaml|json)$/, '.expected-profile.json');
    expect(written.profile).toEqual(JSON.parse(await readFile(documentOf(expected), 'utf8')));
    const validate = schemaValidator(SCHEMA);
    expect(validate(written.profile), JSON.stringify(validate.errors)).toBe(true);
    const { doc } = await readOpenApi(documentOf(file));
    expect(unfoundedClaims(doc, written.profile)).toEqual([]);
    const facts = JSON.parse(
      await readFile(documentOf(file.replace(/\.(yaml|json)$/, '.claims.json')), 'utf8'),
    ) as Facts;
    expect(judge(facts, written.profile)).toEqual({ missed: [], wrong: [] });
  });

test('"`Authorization: YOUR_API_KEY`" → apikeyScheme "" (the key alone), the to-do quoting the sentence it was read from', async () => {
  const w = await init(documentOf('key-alone-3.1.yaml'));
  expect(w.profile.apikeyScheme).toBe('');
  const line = todoLine(w, '/apikeyScheme:');
  expect(line).toContain('the key alone, no word before it');
  expect(line).toContain('`Authorization: YOUR_API_KEY`');
  expect(line).not.toContain('does not say');
});

test('"This endpoint is not authenticated …" on an operation whose security asks for credentials → the public read, never the protected one, both to-dos quoting it', async () => {
  const w = await init(documentOf('prose-public-3.1.yaml'));
  expect(w.profile.endpoints.public).toEqual({ path: '/', method: 'GET' });
  expect((w.profile.endpoints.protected as { path: string }).path).toBe('/info');
  const sentence =
    'This endpoint is not authenticated for the purpose of clients and user to identify the JupyterHub version before setting up authentication.';
  expect(todoLine(w, '/endpoints/public:')).toContain(
    `its security asks for credentials, but its description says "${sentence}"`,
  );
  expect(todoLine(w, '/endpoints/protected:')).toContain(`not GET / (its description says "${sentence}")`);
});

test('a role on a tag, "Operator token" in a summary, "must have the following roles" → admin evidence quoted; /admin operations stating no security are named, and never the public read', async () => {
  const w = await init(documentOf('admin-in-words-3.1.yaml'));
  expect((w.profile.endpoints.admin as { path: string }).path).toBe('/users');
  const admin = todoLine(w, '/endpoints/admin: GET /users');
  expect(admin).toContain('its summary says "List all users | Operator token"');
  expect(admin).toContain('runner-up: GET /api-credentials/me');
  expect(admin).toContain('must have the following roles');
  expect((w.profile.endpoints.public as { path: string }).path).toBe('/status/components/all');
  expect(w.profile.todo).toContain(
    '/endpoints/admin: 1 operation the document marks as an administrator’s states no security requirement (GET /admin/site_settings) — by OpenAPI anyone may call them, so the profile claims none of them: confirm the target protects them',
  );
  // The tag's words alone make its operation an administrator's: without the summary and the roles, it is the pick.
  const text = (await readFile(documentOf('admin-in-words-3.1.yaml'), 'utf8'))
    .replace('List all users | Operator token', 'List all users')
    .replace('your API credential must have the following roles', 'your API credential is shown');
  const tagged = await initText(text);
  expect((tagged.profile.endpoints.admin as { path: string }).path).toBe('/organisation/settings');
  expect(todoLine(tagged, '/endpoints/admin: GET')).toContain(
    'its tag "Organisation" says "You need to have the "owner" role to access these endpoints."',
  );
});

test('"Local development server (do not use)" is passed over, and "Change the host to your own instance" leaves the baseUrl out with a to-do quoting it; --server still takes either', async () => {
  const w = await init(documentOf('server-warnings-3.1.yaml'));
  expect(w.profile.baseUrl).toBeUndefined();
  expect(w.profile.todo).toContain(
    '/baseUrl: passed over — 2 http://localhost:8000/api/v1: "Local development server (do not use)": the document says not to use it',
  );
  expect(todoLine(w, '/baseUrl: left out')).toBe(
    '/baseUrl: left out — the document\'s server https://app.server-warnings.test/api/v1 says "Change the host to your own instance if you are self-hosting.": give the target\'s URL as baseUrl or --base-url (keep its path /api/v1); `gatecheck init --server <n|url>` takes it as it is',
  );
  expect((await init(documentOf('server-warnings-3.1.yaml'), { server: '1' })).profile.baseUrl).toBe(
    'https://app.server-warnings.test/api/v1',
  );
  expect((await init(documentOf('server-warnings-3.1.yaml'), { server: '2' })).profile.baseUrl).toBe(
    'http://localhost:8000/api/v1',
  );
});

test("a read that declares only 204 is not the protected read; a collection of scheduled work is refused for its words; bills, a retention_policy and a webhook's signing secret refuse nothing; no Basic variable where no endpoint takes Basic", async () => {
  const w = await init(documentOf('what-it-does-3.1.yaml'), true);
  expect(todoLine(w, '/endpoints/protected:')).toContain(
    'GET /buckets — a GET that needs credentials; no scope or role; no quota of its own; not GET /ping (its declared success is 204, not 200)',
  );
  const collection = todoLine(w, '/endpoints/collection: POST');
  expect(collection).toContain('POST /bills');
  expect(collection).toContain('runner-up POST /buckets');
  expect(collection).toContain(
    'never: POST /checks (its items are scheduled work: its body\'s taskID says "The ID of the task associated with this check.")',
  );
  for (const harmless of ['POST /bills (', 'POST /buckets (', 'POST /webhooks ('])
    expect(collection).not.toContain(harmless);
  expect(w.profile.identities).toEqual({
    admin: { bearer: { env: 'GATECHECK_ADMIN_BEARER' } },
    user: { bearer: { env: 'GATECHECK_USER_BEARER' } },
  });
  expect(w.env).not.toContain('USERNAME');
});

const ORIGINS = `openapi: 3.1.0
info: { title: origins, version: '1' }
servers: [{ url: 'https://api.origins.test' }]
components: { securitySchemes: { token: { type: http, scheme: bearer } } }
security: [{ token: [] }]
paths:
  /me/allowedOrigins:
    post:
      description: Adds an allowed origin to the list of allowed origins of your API credential.
      requestBody:
        content: { application/json: { schema: { type: object, required: [domain], properties: { domain: { type: string } } } } }
      responses: { '200': { description: added, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } } }
  /me/allowedOrigins/{id}:
    get: { responses: { '200': { description: it } } }
    delete: { responses: { '204': { description: gone } } }
  /notes:
    post:
      requestBody:
        content: { application/json: { schema: { type: object, required: [title, body], properties: { title: { type: string }, body: { type: string } } } } }
      responses: { '200': { description: stored, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } } }
  /notes/{id}:
    get: { responses: { '200': { description: it } } }
    delete: { responses: { '204': { description: gone } } }
`;

test('"Adds an allowed origin to the list of allowed origins of your API credential" → an access-control change, taken only when nothing else is, with the to-do quoting it', async () => {
  const w = await initText(ORIGINS, true);
  expect((w.profile.endpoints.collection as { path: string }).path).toBe('/notes');
  expect(todoLine(w, '/endpoints/collection: POST /notes')).toContain('runner-up POST /me/allowedOrigins');
  const alone = await initText(ORIGINS.replace(/ {2}\/notes:[\s\S]*$/, ''), true);
  expect((alone.profile.endpoints.collection as { path: string }).path).toBe('/me/allowedOrigins');
  expect(alone.profile.todo).toContain(
    '/endpoints/collection: it changes access control: its description says "Adds an allowed origin to the list of allowed origins of your API credential."; picked only because the document has no other collection the rules can write to and clean up; the sample sets no privilege member: confirm the target\'s test account may create and delete one',
  );
});

test('writes whose only scheme is a key in another header → the to-do says no write takes a credential in Authorization, not that no item path takes DELETE', async () => {
  const w = await init(documentOf('writes-without-authorization-3.1.yaml'), true);
  expect(todoLine(w, '/endpoints/collection:')).toBe(
    '/endpoints/collection: no collection the write rules can use: the one POST whose item path takes DELETE takes no credential in Authorization, which the write rules send (POST /notes: it takes {writeKey} (apiKey X-Write-Key in header: a key sent outside the Authorization header))',
  );
});
