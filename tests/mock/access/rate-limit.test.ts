/**
 * Rate limiting over HTTP (docs/design.md "Status choices": over the limit → 429 with Retry-After; a client that
 * keeps sending while limited is banned → 403; seed §8). Short limits, a frozen clock moved through the
 * control API instead of sleeping.
 */

import { expect, test } from '@playwright/test';
import type { RunningMock } from '../../../mock/server.ts';
import {
  advance,
  CAROL,
  control,
  controlJson,
  freezeAtWindowStart,
  parsePolicy,
  parseRateLimit,
  retryAfter,
  startTestMock,
} from '../control/control-support.ts';
import { type Answer, authorization, call, expectProblem, USER, WRONG } from '../mock-support.ts';

const LIMIT = 5;
const FAILED = 4;
const BAN_AFTER = 3;
const GROUP = {
  limit: LIMIT,
  windowSeconds: 10,
  failedAttemptLimit: FAILED,
  banAfter: BAN_AFTER,
  banSeconds: 30,
};

let mock: RunningMock;
test.beforeEach(async () => {
  mock = await startTestMock({ rateLimit: { groups: { default: GROUP } } });
  await freezeAtWindowStart(mock);
});
test.afterEach(async () => {
  await mock?.close();
});

const carol = { authorization: authorization(CAROL, 'basic') };
const get = (path: string, headers?: Record<string, string>): Promise<Answer> =>
  call(mock.url, 'GET', path, { headers });

async function burst(
  n: number,
  path = '/protected',
  headers: Record<string, string> = carol,
): Promise<Answer[]> {
  const out: Answer[] = [];
  for (let i = 0; i < n; i++) out.push(await get(path, headers));
  return out;
}

test('a burst past the limit → 429 problem+json with Retry-After and IETF RateLimit fields; advancing the clock past the window → 200 again', async () => {
  const answers = await burst(LIMIT + 1);
  const allowed = answers.slice(0, LIMIT);
  expect(allowed.map((a) => a.status)).toEqual(Array(LIMIT).fill(200));
  // Every answer of a limited route carries the fields; remaining counts down.
  expect(allowed.map((a) => parseRateLimit(a.header('ratelimit')).r)).toEqual([4, 3, 2, 1, 0]);
  expect(parsePolicy(allowed[0]?.header('ratelimit-policy'))).toEqual({ name: 'default', q: LIMIT, w: 10 });

  const limited = answers[LIMIT] as Answer;
  const body = expectProblem(limited, 429);
  expect(body.code).toBe('rate_limited');
  expect(body.detail).toContain('retry after 10 s');
  expect(retryAfter(limited)).toBe(10);
  expect(parseRateLimit(limited.header('ratelimit'))).toEqual({ name: 'default', r: 0, t: 10 });

  await advance(mock, 4);
  const still = await get('/protected', carol);
  expect(still.status).toBe(429);
  expect(retryAfter(still)).toBe(6);

  await advance(mock, 6);
  const again = await get('/protected', carol);
  expect(again.status, again.text).toBe(200);
  expect(parseRateLimit(again.header('ratelimit')).r).toBe(LIMIT - 1);
});

test('the legacy header style (rateLimit.headers = legacy) → RateLimit-Limit/-Remaining/-Reset instead', async () => {
  await controlJson(mock, 'PUT', '/limits', { headers: 'legacy' });
  const [first] = await burst(1);
  expect(first?.header('ratelimit-limit')).toBe(String(LIMIT));
  expect(first?.header('ratelimit-remaining')).toBe(String(LIMIT - 1));
  expect(first?.header('ratelimit-reset')).toBe('10');
  expect(first?.header('ratelimit')).toBeUndefined();
  const limited = (await burst(LIMIT)).at(-1) as Answer;
  expect(limited.status).toBe(429);
  expect(limited.header('ratelimit-remaining')).toBe('0');
  expect(retryAfter(limited)).toBe(10);
});

test('a client that keeps sending while limited → banned: 403 saying so, Retry-After never before the window reset; the ban expires', async () => {
  const answers = await burst(LIMIT + BAN_AFTER + 1);
  expect(answers.map((a) => a.status)).toEqual([
    ...Array(LIMIT).fill(200),
    ...Array(BAN_AFTER).fill(429),
    403,
  ]);
  const ban = answers.at(-1) as Answer;
  const body = expectProblem(ban, 403);
  expect(body.code).toBe('banned');
  expect(body.detail).toMatch(/banned until .*retry after 30 s/);
  expect(retryAfter(ban)).toBe(30);

  // The same identity with other credentials: still banned (authenticating again does not change it).
  await advance(mock, 15);
  const other = await get('/protected', { authorization: authorization(CAROL, 'bearer') });
  expect(other.status).toBe(403);
  expect(retryAfter(other)).toBe(15);
  // Another client is not affected.
  expect((await get('/protected', { authorization: authorization(USER, 'basic') })).status).toBe(200);

  await advance(mock, 15);
  expect((await get('/protected', carol)).status).toBe(200);
});

test('a ban decided late in a window lasts at least until that window ends (Retry-After ≥ the limiter reset)', async () => {
  await controlJson(mock, 'PUT', '/limits', { groups: { default: { windowSeconds: 60, banSeconds: 5 } } });
  await advance(mock, 30);
  const ban = (await burst(LIMIT + BAN_AFTER + 1)).at(-1) as Answer;
  expect(ban.status).toBe(403);
  // The ban alone would say 5 s; the window that is over its limit ends in 30 s.
  expect(retryAfter(ban)).toBe(30);
  await advance(mock, 6);
  const later = await get('/protected', carol);
  expect(later.status).toBe(403);
  expect(retryAfter(later)).toBe(24);
  await advance(mock, 24);
  expect((await get('/protected', carol)).status).toBe(200);
});

test('failed credential attempts count against the client address: over failedAttemptLimit → 429 even with valid credentials, before they are checked', async () => {
  const attempts = await burst(FAILED, '/protected', { authorization: WRONG.basic });
  expect(attempts.map((a) => a.status)).toEqual(Array(FAILED).fill(401));
  expect(parsePolicy(attempts[0]?.header('ratelimit-policy'))).toEqual({
    name: 'default:failed',
    q: FAILED,
    w: 10,
  });
  expect(parseRateLimit(attempts.at(-1)?.header('ratelimit')).r).toBe(0);
  const over = await get('/protected', { authorization: WRONG.basic });
  const body = expectProblem(over, 429);
  expect(body.code).toBe('rate_limited');
  expect(body.detail).toContain(`${FAILED} failed credential attempts per address per 10 s`);
  // The address is over its limit: even correct credentials of another identity are refused before checking.
  const valid = await get('/protected', { authorization: authorization(USER, 'basic') });
  expect(valid.status).toBe(429);
  const journal = (await controlJson(mock, 'GET', '/journal?limit=1')) as {
    entries: Array<Record<string, unknown>>;
  };
  expect(journal.entries[0]).toMatchObject({ status: 429, client: 'ip:127.0.0.1', outcome: 'rate_limited' });
  // Refused by the failed-attempt limit, before the route's own counted it.
  expect(journal.entries[0]).not.toHaveProperty('limitKey');
  expect(journal.entries[0]).not.toHaveProperty('identity');

  await advance(mock, 10);
  expect((await get('/protected', { authorization: authorization(USER, 'basic') })).status).toBe(200);
  // Counted by the route's limit, under the identity; a path the mock does not have, by none.
  expect((await get('/no-such-path', { authorization: authorization(USER, 'basic') })).status).toBe(404);
  const last = (await controlJson(mock, 'GET', '/journal?limit=2')) as {
    entries: Array<Record<string, unknown>>;
  };
  expect(last.entries[0]).toMatchObject({ status: 200, limitKey: expect.stringMatching(/^id:/) });
  expect(last.entries[1]).toMatchObject({ status: 404 });
  expect(last.entries[1]).not.toHaveProperty('limitKey');
});

test('failed attempts are counted apart: a client that mistyped its password keeps its own quota', async () => {
  await burst(FAILED - 1, '/protected', { authorization: WRONG.basic });
  const answers = await burst(LIMIT);
  expect(answers.map((a) => a.status)).toEqual(Array(LIMIT).fill(200));
  expect(parseRateLimit(answers.at(-1)?.header('ratelimit'))).toEqual({ name: 'default', r: 0, t: 10 });
});

test('the key is the verified identity: carol limited does not limit bob from the same address; public routes count per address', async () => {
  await burst(LIMIT + 1);
  expect((await get('/protected', carol)).status).toBe(429);
  expect((await get('/protected', { authorization: authorization(USER, 'bearer') })).status).toBe(200);
  const publicAnswers = await burst(LIMIT + 1, '/users', {});
  expect(publicAnswers.map((a) => a.status)).toEqual([...Array(LIMIT).fill(200), 429]);
});

test('route groups: a route mapped to "none" is never limited and carries no fields; a stricter group applies to its route only', async () => {
  await controlJson(mock, 'PUT', '/limits', {
    groups: { strict: { limit: 2, windowSeconds: 60, banAfter: 10, banSeconds: 0 } },
    routes: { 'GET /users': 'none', '/admin': 'strict' },
  });
  const publicAnswers = await burst(LIMIT + 3, '/users', {});
  expect(publicAnswers.every((a) => a.status === 200)).toBe(true);
  expect(publicAnswers[0]?.header('ratelimit')).toBeUndefined();

  const admin = { authorization: authorization(USER, 'bearer') };
  const adminAnswers = await burst(3, '/admin', admin);
  // bob lacks the admin role (403), and the fields still come with the refusal; the third is over "strict".
  expect(adminAnswers.map((a) => a.status)).toEqual([403, 403, 429]);
  expect(parsePolicy(adminAnswers[0]?.header('ratelimit-policy'))).toEqual({ name: 'strict', q: 2, w: 60 });
  // /protected still has the default group.
  expect(parsePolicy((await get('/protected', admin)).header('ratelimit-policy')).name).toBe('default');
});

test('limits changed through the control API are checked: an unknown route or group → 400 naming it', async () => {
  const badRoute = await control(mock, 'PUT', '/limits', { routes: { '/nowhere': 'default' } });
  expect(expectProblem(badRoute, 400).detail).toContain('/nowhere');
  const badGroup = await control(mock, 'PUT', '/limits', { routes: { '/admin': 'gold' } });
  expect(expectProblem(badGroup, 400).detail).toContain('no group "gold"');
  const badValue = await control(mock, 'PUT', '/limits', { groups: { default: { limit: 0 } } });
  expect(expectProblem(badValue, 400).detail).toContain('limit');
});

test('rate limiting switched off (rateLimit.enabled = false) → no fields, no 429', async () => {
  await controlJson(mock, 'PUT', '/limits', { enabled: false });
  const answers = await burst(LIMIT + 2);
  expect(answers.every((a) => a.status === 200)).toBe(true);
  expect(answers[0]?.header('ratelimit')).toBeUndefined();
});
