/**
 * Servers and admin to-dos that do not mislead (cli/init/servers.ts chooseServer, picks.ts unusableAdmin):
 * every server listed; a sandbox, staging, test or local server taken before production; a public demo host
 * never the default without a to-do; `--server <n|url>` chooses; an empty server URL said as such; an admin
 * read that is marked but unusable, or whose admin wording depends on a query value, said truthfully.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { scratch } from '../cli.ts';
import { initText } from './run-init.ts';

type Json = Record<string, unknown>;

const document = (servers: string, paths = '') => `openapi: 3.0.3
info: { title: servers, version: '1' }
servers: ${servers}
components:
  securitySchemes: { bearer: { type: http, scheme: bearer } }
security: [{ bearer: [] }]
paths:
  /me:
    get: { responses: { '200': { description: ok } } }
${paths}`;

const PRODUCTION_FIRST = `
  - { url: 'https://api.acme.test/v1', description: Production }
  - { url: 'https://sandbox.acme.test/v1', description: Sandbox }`;

test('several servers: all listed, the sandbox taken before production, --server picks by number or URL', async () => {
  const w = await initText(document(PRODUCTION_FIRST));
  expect(w.profile.baseUrl).toBe('https://sandbox.acme.test/v1');
  const line = w.profile.todo.find((t) => t.startsWith('/baseUrl: the document lists 2 servers')) ?? '';
  expect(line).toContain('1 https://api.acme.test/v1 (Production); 2 https://sandbox.acme.test/v1 (Sandbox)');
  expect(line).toContain('init took 2');
  expect((await initText(document(PRODUCTION_FIRST), { server: '1' })).profile.baseUrl).toBe(
    'https://api.acme.test/v1',
  );
  expect(
    (await initText(document(PRODUCTION_FIRST), { server: 'https://api.acme.test/v1' })).profile.baseUrl,
  ).toBe('https://api.acme.test/v1');
  await expect(initText(document(PRODUCTION_FIRST), { server: '3' })).rejects.toThrow(
    /^init: --server 3: the document lists 2 \(/,
  );
});

test('a public demo host is never the default without a to-do; an empty server URL is said as such', async () => {
  const both = await initText(
    document(`[{ url: 'https://demo.acme.test/api' }, { url: 'https://api.acme.test' }]`),
  );
  expect(both.profile.baseUrl).toBe('https://api.acme.test');
  const only = await initText(document(`[{ url: 'https://petstore3.swagger.io/api/v3' }]`));
  expect(only.profile.todo.join('\n')).toContain(
    '/baseUrl: https://petstore3.swagger.io/api/v3 is a public demo or placeholder host by its name',
  );
  const empty = await initText(document(`[{ url: '' }]`));
  expect(empty.profile.todo.join('\n')).toContain("the document's server has an empty url");
  expect(empty.profile.todo.join('\n')).not.toContain('server  cannot');
});

test('an admin read marked but unusable is named with the reason; query-dependent admin wording is no admin pick', async () => {
  const marked = await initText(
    document(
      `[{ url: 'http://127.0.0.1:9' }]`,
      `  /admin/realms/{realm}/users:
    get: { tags: [Admin], description: Admin only., responses: { '200': { description: ok } } }
`,
    ),
  );
  expect((marked.profile.endpoints as Json).admin).toBeUndefined();
  expect(marked.profile.todo.join('\n')).toContain(
    '/endpoints/admin: the document marks 1 operation as an administrator’s, none usable as the admin read: GET /admin/realms/{realm}/users (path parameters realm have no value in the document)',
  );
  const conditional = await initText(
    document(
      `[{ url: 'http://127.0.0.1:9' }]`,
      `  /projects:
    get:
      description: Lists projects. If \`all\` is true, requires admin privileges.
      parameters: [{ name: all, in: query, schema: { type: boolean } }]
      responses: { '200': { description: ok } }
`,
    ),
  );
  expect((conditional.profile.endpoints as Json).admin).toBeUndefined();
  expect(conditional.profile.todo.join('\n')).toContain(
    'GET /projects (its admin wording ("requires admin") applies only with query all: without it the user identity\'s answer is 200)',
  );
});

test('the CLI takes --server: `gatecheck init doc.yaml --server 1` writes the production server; an unknown one is one line, exit 2', async () => {
  const s = await scratch();
  try {
    await writeFile(path.join(s.dir, 'doc.yaml'), document(PRODUCTION_FIRST));
    const chosen = await s.gatecheck(['init', 'doc.yaml', '--out', 'p.json', '--server', '1']);
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(JSON.parse(await readFile(path.join(s.dir, 'p.json'), 'utf8')).baseUrl).toBe(
      'https://api.acme.test/v1',
    );
    const unknown = await s.gatecheck([
      'init',
      'doc.yaml',
      '--out',
      'q.json',
      '--server',
      'https://nope.test',
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
  } finally {
    await s.dispose();
  }
});
