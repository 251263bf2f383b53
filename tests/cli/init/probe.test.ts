/**
 * `gatecheck init --probe URL` (docs/package.md "gatecheck init", issue #69): the profile's public, protected
 * and admin picks checked against the target's answers before it is written — GETs only, at most PROBE_LIMIT,
 * each printed with its status; a pick an answer contradicts is passed over for the next candidate, the answer
 * quoted in the to-do. Only the given URL is asked: not the document's own server, and nothing else (the mock's
 * journal holds exactly the printed requests).
 */
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PROBE_LIMIT } from '../../../cli/init/probe.ts';
import { type RunningMock, startMock } from '../../../mock/server.ts';
import { type Scratch, scratch } from '../cli.ts';

let mock: RunningMock;
let decoy: Server;
let decoyHits = 0;
let s: Scratch;

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * The document disagrees with the mock twice: it calls /admin public (the mock protects it) and /users
 * protected (the mock serves it to anyone); it is right about /protected. Its server is a decoy listener.
 */
function document(server: string): object {
  const ok = { responses: { '200': { description: 'OK' } } };
  return {
    openapi: '3.1.0',
    info: { title: 'probe fixture', version: '1' },
    servers: [{ url: server }],
    paths: {
      '/admin': { get: { ...ok, security: [] } },
      '/users': { get: { ...ok, security: [{ bearer: [] }] } },
      '/protected': { get: { ...ok, security: [{ bearer: ['admin'] }, { basic: ['admin'] }] } },
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        basic: { type: 'http', scheme: 'basic' },
      },
    },
  };
}

async function journal(): Promise<{ method: string; path: string; status: number }[]> {
  const response = await fetch(`${mock.url}/__gatecheck/journal`, {
    headers: { authorization: `Bearer ${mock.control?.token}` },
  });
  return ((await response.json()) as { entries: { method: string; path: string; status: number }[] }).entries;
}

test.beforeAll(async () => {
  mock = await startMock({ port: 0 });
  decoy = createServer((_, response) => {
    decoyHits++;
    response.end();
  });
  s = await scratch();
  await writeFile(path.join(s.dir, 'openapi.json'), JSON.stringify(document(await listen(decoy))));
});

test.afterAll(async () => {
  await mock?.close();
  decoy?.close();
  await s?.dispose();
});

test('--probe checks each pick against the answers: a public pick answered 401 and a protected pick answered 200 are passed over with the answer quoted; it asks the given URL only, with GETs', async () => {
  const result = await s.gatecheck(['init', 'openapi.json', '--out', 'profile.json', '--probe', mock.url]);
  expect(result.code, result.stderr).toBe(0);
  const probe = result.stdout.slice(result.stdout.indexOf(`Probe of ${mock.url}:`));
  const requests = probe.split('\n').filter((line) => line.startsWith('  GET '));
  expect(requests).toEqual([
    '  GET /admin (no credentials) → 401',
    '  GET /users (no credentials) → 200',
    '  GET /protected (no credentials) → 401',
  ]);
  expect(probe).toContain(
    `Probe of ${mock.url}: 3 requests, GET only, none with a body, none outside ${mock.url}:`,
  );
  expect(probe).toContain(
    '  - public GET /admin: passed over — GET /admin (no credentials) → 401: the public read must answer 2xx without credentials',
  );
  expect(probe).toContain(
    '  - protected GET /users: passed over — GET /users (no credentials) → 200 without credentials: it is not protected',
  );
  expect(probe).toContain('  - protected GET /protected: not contradicted');
  expect(probe).toContain('the admin identity not asked: GATECHECK_ADMIN_BEARER is not set');
  const profile = JSON.parse(await readFile(path.join(s.dir, 'profile.json'), 'utf8')) as {
    endpoints: Record<string, { path: string } | undefined>;
    todo: string[];
  };
  expect(profile.endpoints.public).toBeUndefined();
  expect(profile.endpoints.protected?.path).toBe('/protected');
  expect(profile.todo).toContain(
    '/endpoints/public: the document has no public read init can send as it is; --probe passed over GET /admin (GET /admin (no credentials) → 401: the public read must answer 2xx without credentials); add one if the target has it',
  );
  expect(profile.todo.find((t) => t.startsWith('/endpoints/protected:'))).toContain(
    '--probe passed over GET /users (GET /users (no credentials) → 200 without credentials: it is not protected)',
  );

  // Bounded, and every request sent was printed: the mock saw exactly these, the document's server nothing.
  expect(requests.length).toBeLessThanOrEqual(PROBE_LIMIT);
  expect((await journal()).map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
    'GET /admin 401',
    'GET /users 200',
    'GET /protected 401',
  ]);
  expect(decoyHits).toBe(0);
});

test("--probe of a closed loopback port → the first request gets no answer and nothing more is sent; the picks are kept, each with a to-do saying it was not confirmed; exit 0, the document's server untouched", async () => {
  const closed = createServer();
  const url = await listen(closed);
  closed.close();
  await once(closed, 'close');
  const result = await s.gatecheck(['init', 'openapi.json', '--out', 'closed.json', '--probe', url]);
  expect(result.code, result.stderr).toBe(0);
  const answers = result.stdout.split('\n').filter((line) => line.startsWith('  GET '));
  expect(answers).toEqual([
    expect.stringMatching(/^ {2}GET \/admin \(no credentials\) → no answer \(TypeError/),
  ]);
  expect(result.stdout).toContain(`  Stopped: ${url} gave no answer (TypeError`);
  const profile = JSON.parse(await readFile(path.join(s.dir, 'closed.json'), 'utf8')) as { todo: string[] };
  expect(profile.todo.filter((t) => t.includes('--probe could not confirm'))).toHaveLength(3);
  expect(decoyHits).toBe(0);
});
