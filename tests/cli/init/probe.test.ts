/**
 * `gatecheck init --probe URL` (docs/package.md "gatecheck init"): one GET without credentials to each of the
 * profile's public, protected and admin paths, at most PROBE_LIMIT, each printed with its status and
 * challenge, and a report of where the target and its document disagree. Only the given URL is asked: not the
 * document's own server, and nothing else (the mock's journal holds exactly the printed requests).
 */
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
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

test('--probe prints each request, its status and challenge, and where the target and its document disagree; it asks the given URL only', async () => {
  const result = await s.gatecheck(['init', 'openapi.json', '--out', 'profile.json', '--probe', mock.url]);
  expect(result.code, result.stderr).toBe(0);
  const probe = result.stdout.slice(result.stdout.indexOf(`Probe of ${mock.url}:`));
  const requests = probe
    .split('\n')
    .filter((line) => line.includes('(no credentials)') && line.includes('→'));
  expect(requests).toEqual([
    expect.stringMatching(
      /^ {2}GET \/admin \(no credentials\) → 401 {2}WWW-Authenticate: Bearer realm="gatecheck"/,
    ),
    '  GET /users (no credentials) → 200',
    expect.stringMatching(
      /^ {2}GET \/protected \(no credentials\) → 401 {2}WWW-Authenticate: .*Bearer.*Basic/,
    ),
  ]);
  expect(probe).toContain('Disagreements:\n');
  expect(probe).toContain(
    '  - GET /admin (no credentials): the document says public, the target answers 401\n',
  );
  expect(probe).toContain(
    '  - GET /users (no credentials): the document requires credentials, the target answers 200 without them\n',
  );
  expect(probe).not.toContain('- GET /protected');

  // Bounded, and every request sent was printed: the mock saw exactly these, the document's server nothing.
  expect(requests.length).toBeLessThanOrEqual(PROBE_LIMIT);
  expect((await journal()).map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
    'GET /admin 401',
    'GET /users 200',
    'GET /protected 401',
  ]);
  expect(decoyHits).toBe(0);
});

test("--probe of a closed loopback port → each request printed with 'no answer', exit 0, the document's server untouched", async () => {
  const closed = createServer();
  const url = await listen(closed);
  closed.close();
  await once(closed, 'close');
  const result = await s.gatecheck(['init', 'openapi.json', '--out', 'closed.json', '--probe', url]);
  expect(result.code, result.stderr).toBe(0);
  const answers = result.stdout.split('\n').filter((line) => line.startsWith('  - GET '));
  expect(answers).toHaveLength(3);
  for (const line of answers) expect(line).toMatch(/: no answer \(TypeError\)$/);
  expect(decoyHits).toBe(0);
});
