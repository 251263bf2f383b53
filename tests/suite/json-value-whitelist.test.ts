/**
 * request.json-value.stored against a target that drops the members its schema does not declare (a
 * validation pipe with a whitelist — NestJS's `ValidationPipe({ whitelist: true })`): the interface leaves
 * body shapes "not shown", so dropping undeclared members is a design, and a member that is absent was not
 * changed. The rule passes there and reports the dropped members (INFO); it still fails a target that keeps
 * undeclared members but drops one (mock defect proto-key-dropped, tests/mutation).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { type RunningMock, startMock } from '../../mock/server.ts';
import { MOCK_PROFILE, runSuite, specsOf } from '../helpers/run-suite.ts';

const PROFILE = JSON.parse(readFileSync(MOCK_PROFILE, 'utf8')) as {
  endpoints: { collection: { path: string; sampleItem: Record<string, unknown> } };
};
const { path: COLLECTION, sampleItem } = PROFILE.endpoints.collection;
/** The members the whitelisting target declares: the sample item's. */
const DECLARED = new Set(Object.keys(sampleItem));

/** A proxy in front of the mock that keeps only declared members of a JSON object POSTed to the collection. */
async function whitelisting(mockUrl: string): Promise<{ url: string; server: Server }> {
  const target = new URL(mockUrl);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (req.method === 'POST' && req.url === COLLECTION && body.length > 0) {
        try {
          const value = JSON.parse(body.toString('utf8')) as unknown;
          if (value !== null && typeof value === 'object' && !Array.isArray(value))
            body = Buffer.from(
              JSON.stringify(
                Object.fromEntries(Object.entries(value).filter(([name]) => DECLARED.has(name))),
              ),
            );
        } catch {
          // not JSON: the target refuses it as before
        }
      }
      const headers = { ...req.headers, host: target.host, 'content-length': String(body.length) };
      const upstream = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

let mock: RunningMock;
let proxy: { url: string; server: Server };
let dir: string;
test.beforeAll(async () => {
  mock = await startMock({ port: 0, host: '127.0.0.1' });
  proxy = await whitelisting(mock.url);
  dir = await mkdtemp(join(tmpdir(), 'gatecheck-whitelist-'));
});
test.afterAll(async () => {
  await new Promise((resolve) => proxy?.server.close(resolve));
  await mock?.close();
  await rm(dir, { recursive: true, force: true });
});

test.describe.configure({ timeout: 180_000 });

test('a target that drops undeclared members passes request.json-value.stored, the dropped members reported', async () => {
  const run = await runSuite({
    args: ['--workers=1', '--grep=@rule:request\\.json-value\\.stored( |$)'],
    env: { BASE_URL: proxy.url, GATECHECK_PROFILE: MOCK_PROFILE },
  });
  const tests = specsOf(run, 'request.json-value.stored').flatMap((s) => s.tests);
  expect(tests.length).toBeGreaterThan(0);
  const results = tests.map((t) => t.results[0]);
  expect(
    results.map((r) => r?.status),
    JSON.stringify(results.map((r) => r?.errors?.map((e) => e.message?.slice(0, 400)))),
  ).toEqual(['passed']);
  const notes = tests
    .flatMap((t) => [...t.annotations, ...t.results.flatMap((r) => r.annotations)])
    .map((a) => a.description ?? '');
  // A SHOULD failure is a warning: the test passes and carries `[rule] expected …; got …`.
  expect(notes.filter((n) => n.startsWith('[request.json-value.stored] expected'))).toEqual([]);
  expect(notes.some((n) => /drops members/.test(n) && /gatecheck/.test(n))).toBe(true);
});
