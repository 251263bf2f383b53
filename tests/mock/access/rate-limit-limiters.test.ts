/**
 * The mock counting as four real limiters count, by configuration alone (docs/mock.md "Rate limiting: as real
 * limiters count"; fixtures/limiters/*.mock.json): nginx `limit_req` (leaky bucket, burst, nodelay, 429 or 503,
 * no header at all), @fastify/rate-limit (a window from the client's first request, X-RateLimit-*, Retry-After,
 * a ban → 403 until the window ends), slowapi (moving window per address and route, no header), and
 * express-rate-limit (a client window, RateLimit and RateLimit-Policy of drafts 7 and 8). A frozen clock
 * moved through the control API replaces sleeping.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { RateLimitFile } from '../../../mock/access/rate-limit-settings.ts';
import { FIXTURES_DIR } from '../../../mock/config.ts';
import type { RunningMock } from '../../../mock/server.ts';
import { advanceMs, limitedMockPerTest } from '../control/control-support.ts';
import { type Answer, authorization, call, USER } from '../mock-support.ts';

const limitedMock = limitedMockPerTest();
const bob = { authorization: authorization(USER, 'bearer') };

function send(
  mock: RunningMock,
  path = '/users',
  from = '203.0.113.7',
  headers: Record<string, string> = {},
) {
  return call(mock.url, 'GET', path, { headers: { 'x-forwarded-for': from, ...headers } });
}

async function statuses(mock: RunningMock, n: number, path = '/users'): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await send(mock, path)).status);
  return out;
}

const RATE_LIMIT_FIELDS = /^(x-)?ratelimit|^retry-after$/;
const rateLimitFields = (a: Answer): string[] =>
  a.lines.map(([k]) => k).filter((k) => RATE_LIMIT_FIELDS.test(k));

test('leaky bucket (nginx limit_req, burst 10 nodelay): 1 + 10 at once, then one per 1/rate s, refused ones not counted; no header at all', async () => {
  // 6 r/s: 60 per 10 s.
  const mock = await limitedMock({
    headers: 'bare',
    groups: {
      default: { key: 'address', algorithm: 'leaky-bucket', limit: 60, windowSeconds: 10, burstLimit: 10 },
    },
  });
  expect(await statuses(mock, 13)).toEqual([...Array(11).fill(200), 429, 429]);
  const refused = await send(mock);
  expect(refused.status).toBe(429);
  expect(rateLimitFields(refused)).toEqual([]);
  // A refused request is not counted: 1/6 s later exactly one more gets through.
  await advanceMs(mock, 167);
  expect(await statuses(mock, 2)).toEqual([200, 429]);
  // The bucket drains at 6 per second: after ~1.9 s the burst again (10: only a new client's first is free).
  await advanceMs(mock, 1900);
  expect(await statuses(mock, 11)).toEqual([...Array(10).fill(200), 429]);
});

test('leaky bucket answering 503 (nginx’s default limit_req_status), per address: another address is not limited', async () => {
  const mock = await limitedMock({
    headers: 'bare',
    groups: {
      default: {
        key: 'address',
        algorithm: 'leaky-bucket',
        limit: 30,
        windowSeconds: 1,
        burstLimit: 2,
        status: 503,
      },
    },
  });
  expect(await statuses(mock, 4)).toEqual([200, 200, 200, 503]);
  expect((await send(mock, '/users', '198.51.100.9')).status).toBe(200);
});

test('client window (@fastify/rate-limit): from the first request, X-RateLimit-* on every answer, Retry-After on the 429, ban → 403 until the window ends', async () => {
  const mock = await limitedMock({
    headers: 'x-ratelimit',
    groups: {
      default: {
        key: 'address',
        algorithm: 'client-window',
        limit: 5,
        windowSeconds: 10,
        banAfter: 2,
        banSeconds: 0.001,
      },
    },
  });
  // The window starts 3 s after the clock's: a clock-aligned window would turn over 7 s later, this one 10 s.
  await advanceMs(mock, 3000);
  const first = await send(mock);
  expect(first.header('x-ratelimit-limit')).toBe('5');
  expect(first.header('x-ratelimit-remaining')).toBe('4');
  expect(first.header('x-ratelimit-reset')).toBe('10');
  expect(await statuses(mock, 4)).toEqual([200, 200, 200, 200]);
  const over = await send(mock);
  expect(over.status).toBe(429);
  expect(over.header('retry-after')).toBe('10');
  expect((await send(mock)).status).toBe(429);
  // The third limited answer is past `ban` (2): 403, with Retry-After, until the client's window ends.
  const banned = await send(mock);
  expect(banned.status).toBe(403);
  expect(banned.header('retry-after')).toBe('10');
  await advanceMs(mock, 7000);
  expect((await send(mock)).status).toBe(403);
  await advanceMs(mock, 3000);
  expect((await send(mock)).status).toBe(200);
});

test('moving window per address and route (slowapi): each route its own count, room back when the oldest leaves the window; no header', async () => {
  const mock = await limitedMock({
    headers: 'bare',
    groups: { default: { key: 'route', algorithm: 'moving-window', limit: 3, windowSeconds: 10 } },
  });
  expect(await statuses(mock, 2)).toEqual([200, 200]);
  await advanceMs(mock, 6000);
  expect(await statuses(mock, 2)).toEqual([200, 429]);
  // Another route, the same address: a count of its own.
  expect((await send(mock, '/protected', '203.0.113.7', bob)).status).toBe(200);
  const refused = await send(mock);
  expect(rateLimitFields(refused)).toEqual([]);
  // A fixed window would have turned over at 10 s; a moving one frees the first two requests' room then.
  await advanceMs(mock, 4000);
  expect(await statuses(mock, 3)).toEqual([200, 200, 429]);
});

test('express-rate-limit, draft-7 and draft-8 fields: RateLimit and RateLimit-Policy as it writes them, Retry-After on the 429', async () => {
  for (const style of ['draft-7', 'draft-8'] as const) {
    const mock = await limitedMock({
      headers: style,
      groups: {
        default: { key: 'address', algorithm: 'client-window', limit: 2, windowSeconds: 10, banSeconds: 0 },
      },
    });
    const first = await send(mock);
    if (style === 'draft-7') {
      expect(first.header('ratelimit-policy')).toBe('2;w=10');
      expect(first.header('ratelimit')).toBe('limit=2, remaining=1, reset=10');
    } else {
      expect(first.header('ratelimit-policy')).toMatch(/^"2-in-10sec"; q=2; w=10; pk=:[A-Za-z0-9+/=]+:$/);
      expect(first.header('ratelimit')).toBe('"2-in-10sec"; r=1; t=10');
    }
    await send(mock);
    const over = await send(mock);
    expect(over.status).toBe(429);
    expect(over.header('retry-after')).toBe('10');
  }
});

test('the example configurations of docs/mock.md load and limit as their limiter does', async () => {
  for (const [name, expected] of [
    ['nginx', [200, 429]],
    ['fastify', [200, 429]],
    ['slowapi', [200, 429]],
    ['express', [200, 429]],
  ] as const) {
    const file = JSON.parse(readFileSync(join(FIXTURES_DIR, 'limiters', `${name}.mock.json`), 'utf8')) as {
      rateLimit: RateLimitFile;
    };
    const mock = await limitedMock(file.rateLimit);
    const seen = new Set<number>();
    for (let i = 0; i < 80 && !seen.has(429); i++) seen.add((await send(mock)).status);
    expect([...seen].sort(), name).toEqual([...expected]);
  }
});

test('per credential (a gateway’s per-key quota): every Authorization value its own count, valid or not; none → the address', async () => {
  const mock = await limitedMock({
    headers: 'none',
    groups: { default: { key: 'credential', limit: 3, windowSeconds: 10 } },
  });
  const as = (value: string) => ({ authorization: value });
  const run = async (headers: Record<string, string>, n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await send(mock, '/users', '203.0.113.7', headers)).status);
    return out;
  };
  expect(await run(bob, 4)).toEqual([200, 200, 200, 429]);
  // Another value from the same address: a count of its own, even one that does not verify.
  expect((await run(as('Bearer not-a-token'), 4)).at(-1)).toBe(429);
  expect((await run(as('Bearer another'), 1))[0]).not.toBe(429);
  // No credential: the address's count, apart from every credential's.
  expect(await run({}, 4)).toEqual([200, 200, 200, 429]);
});

test('several limits on one route (alongside): NestJS-like 3 per 1 s and 5 per 60 s; a strict route beside the global limit', async () => {
  const nest = await limitedMock({
    headers: 'none',
    groups: {
      default: { key: 'address', limit: 3, windowSeconds: 1, banSeconds: 0, alongside: ['long'] },
      long: { key: 'address', limit: 5, windowSeconds: 60, banSeconds: 0 },
    },
  });
  expect(await statuses(nest, 4)).toEqual([200, 200, 200, 429]);
  await advanceMs(nest, 1000);
  // The short window is fresh, the long one has room for 2 more.
  expect(await statuses(nest, 3)).toEqual([200, 200, 429]);
  await advanceMs(nest, 1000);
  expect(await statuses(nest, 1)).toEqual([429]);
  const strict = await limitedMock({
    headers: 'none',
    groups: {
      default: { key: 'address', limit: 4, windowSeconds: 10, banSeconds: 0 },
      login: { key: 'address', limit: 2, windowSeconds: 10, banSeconds: 0, alongside: ['default'] },
    },
    routes: { '/users': 'login' },
  });
  expect(await statuses(strict, 3, '/users')).toEqual([200, 200, 429]);
  // The strict route's two counted in the global limit too: 2 left of 4 elsewhere.
  expect(await statuses(strict, 3, '/users/1')).toEqual([200, 200, 429]);
});

test('several limits on one route (alongside): every policy in the fields — ietf and draft-8 list each (draft-ietf-httpapi-ratelimit-headers-10 §2, §3: lists of policies; express-rate-limit appends one item per limiter), the single-limit styles name the policy closest to its limit', async () => {
  const groups = (headers: RateLimitFile['headers']): RateLimitFile => ({
    headers,
    groups: {
      default: { key: 'address', limit: 3, windowSeconds: 1, banSeconds: 0, alongside: ['long'] },
      long: { key: 'address', limit: 5, windowSeconds: 60, banSeconds: 0 },
    },
  });
  const ietf = await limitedMock(groups('ietf'));
  const first = await send(ietf);
  expect(first.header('ratelimit-policy')).toBe('"default";q=3;w=1, "long";q=5;w=60');
  expect(first.header('ratelimit')).toMatch(/^"default";r=2;t=\d+, "long";r=4;t=\d+$/);
  await statuses(ietf, 2);
  // Refused by the short window: both policies still named, the refusing one at 0.
  const refused = await send(ietf);
  expect(refused.status).toBe(429);
  expect(refused.header('ratelimit-policy')).toBe('"default";q=3;w=1, "long";q=5;w=60');
  // The fields name the policies that counted it: the short one (`default`) refused it before the long one counted.
  expect(refused.header('ratelimit')).toMatch(/^"default";r=0;t=1$/);
  await advanceMs(ietf, 1000);
  // Refused by the long one (5 counted in 60 s; the short window counted this one first).
  await statuses(ietf, 2);
  const long = await send(ietf);
  expect(long.status).toBe(429);
  expect(long.header('ratelimit')).toMatch(/^"default";r=\d;t=\d+, "long";r=0;t=\d+$/);

  const draft8 = await limitedMock(groups('draft-8'));
  const d8 = await send(draft8);
  expect(d8.header('ratelimit-policy')).toMatch(
    /^"3-in-1sec"; q=3; w=1; pk=:[^:]+:, "5-in-60sec"; q=5; w=60; pk=:[^:]+:$/,
  );
  expect(d8.header('ratelimit')).toMatch(/^"3-in-1sec"; r=2; t=\d+, "5-in-60sec"; r=4; t=\d+$/);

  // One trio (draft-06 and fastify's X-RateLimit-*): the policy closest to its limit; draft-06/07's
  // RateLimit-Policy lists every quota policy.
  const legacy = await limitedMock(groups('legacy'));
  await statuses(legacy, 2);
  const third = await send(legacy);
  expect(third.header('ratelimit-policy')).toBe('3;w=1, 5;w=60');
  expect([third.header('ratelimit-limit'), third.header('ratelimit-remaining')]).toEqual(['3', '0']);
  await advanceMs(legacy, 1000);
  const fourth = await send(legacy);
  // short: 2 left of 3; long: 1 left of 5 — the long one is closer.
  expect([fourth.header('ratelimit-limit'), fourth.header('ratelimit-remaining')]).toEqual(['5', '1']);
  const draft7 = await limitedMock(groups('draft-7'));
  const d7 = await send(draft7);
  expect(d7.header('ratelimit-policy')).toBe('3;w=1, 5;w=60');
  expect(d7.header('ratelimit')).toMatch(/^limit=3, remaining=2, reset=\d+$/);
  const fastify = await limitedMock(groups('x-ratelimit'));
  expect(await statuses(fastify, 3)).toEqual([200, 200, 200]);
  await advanceMs(fastify, 1000);
  const xAnswer = await send(fastify);
  expect([xAnswer.header('x-ratelimit-limit'), xAnswer.header('x-ratelimit-remaining')]).toEqual(['5', '1']);
});
