/**
 * The 429 and 500 rules are skipped against the bundled mock until it declares a rate limit and a fault
 * trigger. These tests give them a target that has both — a proxy in front of the mock that
 * limits each credential to LIMIT requests per WINDOW and answers 500 on /boom — and show the rules pass
 * there, and fail against a target that never limits or leaks a stack trace.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { mockForTests } from '../helpers/mock-for-tests.ts';
import { MOCK_PROFILE, runSuite, specsOf } from '../helpers/run-suite.ts';
import { type Answer, startBrokenTarget } from './helpers/broken-target.ts';

const LIMIT = 5;
const WINDOW_MS = 1500;

const mock = mockForTests();
let dir: string;
let profilePath: string;

test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gatecheck-limits-'));
  const profile = JSON.parse(readFileSync(MOCK_PROFILE, 'utf8')) as Record<string, unknown>;
  profile.rateLimit = { limit: LIMIT, windowSeconds: WINDOW_MS / 1000, identity: 'ratelimit' };
  profile.fault = { path: '/boom', headers: { 'X-Fault': 'please' } };
  profilePath = join(dir, 'limited.profile.json');
  await writeFile(profilePath, JSON.stringify(profile));
});

test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const json = (status: number, body: unknown, extra: [string, string][] = []): Answer => ({
  status,
  headers: [['Content-Type', 'application/problem+json'], ...extra],
  body: Buffer.from(JSON.stringify(body)),
});

/** A fixed window per Authorization value; `limiting` false gives a target that never limits. */
function limiter(options: { limiting: boolean; stack: boolean; limit?: number }) {
  const limit = options.limit ?? LIMIT;
  const windows = new Map<string, { start: number; count: number }>();
  return (
    req: { url?: string; headers: Record<string, string | string[] | undefined> },
    a: Answer,
  ): Answer => {
    if (new URL(req.url ?? '/', 'http://x').pathname === '/boom') {
      const detail = options.stack
        ? 'TypeError: boom\n    at handler (/srv/app/src/routes/boom.js:12:7)'
        : 'unexpected condition';
      return json(500, { title: 'Internal Server Error', status: 500, detail });
    }
    const key = String(req.headers.authorization ?? '');
    if (!options.limiting || key === '') return a;
    const now = Date.now();
    const w = windows.get(key);
    if (!w || now - w.start >= WINDOW_MS) {
      windows.set(key, { start: now, count: 1 });
      return a;
    }
    w.count++;
    if (w.count <= limit) return a;
    const retry = Math.ceil((w.start + WINDOW_MS - now) / 1000);
    return json(429, { title: 'Too Many Requests', status: 429 }, [['Retry-After', String(retry)]]);
  };
}

const grep = '--grep=@rule:(ratelimit|server)\\.';

test('a target with a declared rate limit and fault trigger passes the 429 and 500 rules', async () => {
  const target = await startBrokenTarget(mock.url, limiter({ limiting: true, stack: false }));
  try {
    const run = await runSuite({
      args: ['--workers=1', grep],
      env: { BASE_URL: target.url, GATECHECK_PROFILE: profilePath },
    });
    expect(run.code, `${run.stdout.slice(0, 4000)}\n${run.stderr}`).toBe(0);
    for (const id of [
      'ratelimit.429.exceeded',
      'ratelimit.429.retry-after',
      'ratelimit.429.recovery',
      'server.500.fault',
      'server.500.no-stack',
    ]) {
      const [spec] = specsOf(run, id);
      expect(spec?.tests[0]?.status, id).toBe('expected');
      expect(spec?.tests[0]?.results[0]?.status, `${id} ran`).toBe('passed');
      expect(
        spec?.tests[0]?.results[0]?.annotations.some((a) => a.type === 'warning'),
        `${id} without warning`,
      ).toBe(false);
    }
  } finally {
    await target.close();
  }
});

test('a target that never limits fails ratelimit.429.exceeded; a 500 with a stack trace warns server.500.no-stack', async () => {
  const target = await startBrokenTarget(mock.url, limiter({ limiting: false, stack: true }));
  try {
    const run = await runSuite({
      args: ['--workers=1', grep],
      env: { BASE_URL: target.url, GATECHECK_PROFILE: profilePath },
    });
    expect(run.code).toBe(1);
    const [exceeded] = specsOf(run, 'ratelimit.429.exceeded');
    expect(exceeded?.tests[0]?.status).toBe('unexpected');
    const message = exceeded?.tests[0]?.results[0]?.errors[0]?.message ?? '';
    expect(message).toContain('[ratelimit.429.exceeded] MUST');
    expect(message).toContain(
      `expected: status 429 (or 403) once one ${WINDOW_MS / 1000} s span held more than 2 × ${LIMIT} requests`,
    );
    expect(message).toContain(`actual:   ${2 * LIMIT + 1} requests, none limited`);
    // Nothing was limited, so there is no 429 to judge: skipped with the reason, never passed.
    const [retry] = specsOf(run, 'ratelimit.429.retry-after');
    expect(retry?.tests[0]?.results[0]?.status).toBe('skipped');
    expect(retry?.tests[0]?.results[0]?.annotations.find((a) => a.type === 'skip')?.description).toContain(
      'the burst got no 429',
    );
    const [stack] = specsOf(run, 'server.500.no-stack');
    expect(stack?.tests[0]?.status).toBe('expected');
    expect(stack?.tests[0]?.results[0]?.annotations.find((a) => a.type === 'warning')?.description).toContain(
      '[server.500.no-stack]',
    );
  } finally {
    await target.close();
  }
});

test('limits listed with limit and window only: the burst goes past each before no limited answer fails, and names them', async () => {
  // DRF's two rates written without key or appliesTo: the target counts the burst under the larger alone.
  const larger = 3 * LIMIT;
  const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as Record<string, unknown>;
  profile.rateLimit = [
    { limit: LIMIT, windowSeconds: WINDOW_MS / 1000, identity: 'ratelimit' },
    { limit: larger, windowSeconds: WINDOW_MS / 1000 },
  ];
  const listPath = join(dir, 'list.profile.json');
  await writeFile(listPath, JSON.stringify(profile));
  const runAgainst = async (limiting: boolean) => {
    const target = await startBrokenTarget(mock.url, limiter({ limiting, stack: false, limit: larger }));
    try {
      const run = await runSuite({
        args: ['--workers=1', '--grep=@rule:ratelimit\\.429\\.exceeded'],
        env: { BASE_URL: target.url, GATECHECK_PROFILE: listPath },
      });
      const [exceeded] = specsOf(run, 'ratelimit.429.exceeded');
      return {
        status: exceeded?.tests[0]?.status,
        message: exceeded?.tests[0]?.results[0]?.errors[0]?.message ?? '',
      };
    } finally {
      await target.close();
    }
  };
  // Limited past 2 × LIMIT, at the larger limit: conformant to the list.
  expect((await runAgainst(true)).status).toBe('expected');
  const never = await runAgainst(false);
  expect(never.status).toBe('unexpected');
  expect(never.message).toContain(`2 × ${LIMIT} requests`);
  expect(never.message).toContain(`2 × ${larger} requests`);
  expect(never.message).toContain(`actual:   ${2 * larger + 1} requests, none limited`);
});
