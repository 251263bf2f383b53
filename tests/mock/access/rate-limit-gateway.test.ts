/**
 * The mock behaving like real gateway setups (docs/mock.md "Rate limits like a gateway"): a limit keyed per
 * client address across every route and outcome, a burst limit on top of the window, a ban after a number
 * of limited answers, and short (fractional) windows. A frozen clock moved through the control API replaces
 * sleeping; every Retry-After is checked to be true by waiting exactly that long on the mock's clock.
 */

import { expect, test } from '@playwright/test';
import { protectionOverrides } from '../../../mock/cli/control-flags.ts';
import type { RunningMock } from '../../../mock/server.ts';
import {
  advanceMs,
  CAROL,
  limitedMockPerTest,
  mockPerTest,
  parsePolicy,
  retryAfter,
} from '../control/control-support.ts';
import { ADMIN, type Answer, authorization, call, expectProblem, USER, WRONG } from '../mock-support.ts';

const startMock = mockPerTest();
const limitedMock = limitedMockPerTest();

function send(mock: RunningMock, path: string, headers: Record<string, string> = {}, from = '203.0.113.7') {
  return call(mock.url, 'GET', path, { headers: { 'x-forwarded-for': from, ...headers } });
}

const bob = { authorization: authorization(USER, 'bearer') };
const alice = { authorization: authorization(ADMIN, 'bearer') };
const carol = { authorization: authorization(CAROL, 'basic') };

/** Waits the answer's Retry-After on the mock's clock (exactly, to the millisecond) and sends again. */
async function afterRetryAfter(mock: RunningMock, answer: Answer, again: () => Promise<Answer>) {
  await advanceMs(mock, retryAfter(answer) * 1000);
  return again();
}

test('key "address": every request of an address counts, whatever the route, identity or outcome; 429 then applies to all of them, not to another address', async () => {
  const mock = await limitedMock({
    groups: { default: { key: 'address', limit: 5, windowSeconds: 2, banSeconds: 0 } },
  });
  const answers = [
    await send(mock, '/users'), // public: 200
    await send(mock, '/protected', bob), // 200
    await send(mock, '/protected', { authorization: WRONG.basic }), // 401: counted too
    await send(mock, '/admin', bob), // 403, bob is no admin: counted too
    await send(mock, '/admin', alice), // 200
  ];
  expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 403, 200]);
  expect(parsePolicy(answers[0]?.header('ratelimit-policy'))).toEqual({ name: 'default', q: 5, w: 2 });

  for (const [path, headers] of [
    ['/users', {}],
    ['/protected', carol],
    ['/admin', alice],
  ] as const) {
    const over = await send(mock, path, headers);
    expect(expectProblem(over, 429).detail).toContain('5 requests per address per 2 s');
  }
  // Counted before credentials: a wrong credential meets the 429 too, not a 401.
  expect((await send(mock, '/protected', { authorization: WRONG.bearer })).status).toBe(429);
  // Another address has its own counter.
  expect((await send(mock, '/protected', bob, '198.51.100.9')).status).toBe(200);

  const limited = await send(mock, '/users');
  expect(retryAfter(limited)).toBe(2);
  expect((await afterRetryAfter(mock, limited, () => send(mock, '/protected', bob))).status).toBe(200);
});

test('key "identity" (the default) still counts per identity: the same traffic from one address is not limited', async () => {
  const mock = await limitedMock({ groups: { default: { limit: 5, windowSeconds: 2, banSeconds: 0 } } });
  const statuses: number[] = [];
  for (const headers of [bob, alice, carol, bob, alice, carol, bob, alice]) {
    statuses.push((await send(mock, '/protected', headers)).status);
  }
  expect(statuses).toEqual(Array(8).fill(200));
});

test('burst: 6 per 2 s with a burst of 2 per 0.5 s → the third request within 0.5 s is 429 naming the burst; a refused burst request does not use up the window', async () => {
  const mock = await limitedMock({
    groups: {
      default: {
        key: 'address',
        limit: 6,
        windowSeconds: 2,
        burstLimit: 2,
        burstWindowSeconds: 0.5,
        banSeconds: 0,
      },
    },
  });
  const first = [await send(mock, '/users'), await send(mock, '/users'), await send(mock, '/users')];
  expect(first.map((a) => a.status)).toEqual([200, 200, 429]);
  const burst = first[2] as Answer;
  expect(expectProblem(burst, 429).detail).toContain('2 requests per address in a burst per 0.5 s');
  expect(parsePolicy(burst.header('ratelimit-policy'))).toEqual({ name: 'default:burst', q: 2, w: 1 });
  // Retry-After is whole seconds (RFC 9110 §10.2.3): 0.5 s rounds up to 1, and waiting it is enough.
  expect(retryAfter(burst)).toBe(1);
  expect((await send(mock, '/users')).status).toBe(429);

  // Three more burst windows: the two refused requests above were not counted in the window, so 2 + 2 + 2
  // requests fit in its 6 — the last burst window of the 2 s window is refused by the window itself.
  const statuses: number[] = [];
  for (let i = 0; i < 2; i++) {
    await advanceMs(mock, 500);
    statuses.push((await send(mock, '/users')).status, (await send(mock, '/users')).status);
  }
  expect(statuses).toEqual([200, 200, 200, 200]);
  await advanceMs(mock, 500);
  const windowOver = await send(mock, '/users');
  expect(expectProblem(windowOver, 429).detail).toContain('6 requests per address per 2 s');
  expect(parsePolicy(windowOver.header('ratelimit-policy')).name).toBe('default');
  expect(retryAfter(windowOver)).toBe(1);
  expect((await afterRetryAfter(mock, windowOver, () => send(mock, '/users'))).status).toBe(200);
});

test('ban after 3 limited answers: per address across routes, 403 with Retry-After 5 on every route, then served again', async () => {
  const mock = await limitedMock({
    groups: { default: { key: 'address', limit: 2, windowSeconds: 2, banAfter: 3, banSeconds: 5 } },
  });
  const statuses: number[] = [];
  for (const path of ['/users', '/protected', '/users', '/protected', '/users', '/protected']) {
    statuses.push((await send(mock, path, path === '/users' ? {} : bob)).status);
  }
  expect(statuses).toEqual([200, 200, 429, 429, 429, 403]);
  const ban = await send(mock, '/users');
  expect(expectProblem(ban, 403).code).toBe('banned');
  expect(retryAfter(ban)).toBe(5);
  expect((await send(mock, '/admin', alice)).status).toBe(403);
  await advanceMs(mock, 4000);
  const late = await send(mock, '/protected', bob);
  expect(late.status).toBe(403);
  expect(retryAfter(late)).toBe(1);
  expect((await afterRetryAfter(mock, late, () => send(mock, '/protected', bob))).status).toBe(200);
});

test('ban after burst refusals: answers limited by the burst count towards banAfter too', async () => {
  const mock = await limitedMock({
    groups: {
      default: {
        key: 'address',
        limit: 20,
        windowSeconds: 2,
        burstLimit: 2,
        burstWindowSeconds: 1,
        banAfter: 2,
        banSeconds: 3,
      },
    },
  });
  const answers: Answer[] = [];
  for (let i = 0; i < 5; i++) answers.push(await send(mock, '/users'));
  expect(answers.map((a) => a.status)).toEqual([200, 200, 429, 429, 403]);
  const ban = answers[4] as Answer;
  expect(retryAfter(ban)).toBe(3);
  expect((await afterRetryAfter(mock, ban, () => send(mock, '/users'))).status).toBe(200);
});

test('short windows: 3 requests per 0.25 s per address, moved on the mock clock in milliseconds', async () => {
  const mock = await limitedMock({
    groups: { default: { key: 'address', limit: 3, windowSeconds: 0.25, banSeconds: 0 } },
  });
  const round = async () => {
    const out: number[] = [];
    for (let i = 0; i < 4; i++) out.push((await send(mock, '/users')).status);
    return out;
  };
  expect(await round()).toEqual([200, 200, 200, 429]);
  await advanceMs(mock, 250);
  expect(await round()).toEqual([200, 200, 200, 429]);
});

test('the flags set the same keys: --rate-limit-key, --burst, and fractional seconds in --rate-limit and --ban', () => {
  expect(
    protectionOverrides({ 'rate-limit': '20/2', 'rate-limit-key': 'address', burst: '10/0.5', ban: '3/1.5' }),
  ).toEqual({
    rateLimit: {
      enabled: true,
      groups: {
        default: {
          limit: 20,
          windowSeconds: 2,
          key: 'address',
          burstLimit: 10,
          burstWindowSeconds: 0.5,
          banAfter: 3,
          banSeconds: 1.5,
        },
      },
    },
  });
  expect(protectionOverrides({ 'rate-limit-key': 'ip' })).toBe(
    '--rate-limit-key: expected identity, address or route, got "ip"',
  );
  expect(protectionOverrides({ burst: '10' })).toBe(
    '--burst: expected <requests>/<seconds> (e.g. 10/0.25), got "10"',
  );
});

test('bad gateway settings are refused at start-up with one line naming the field', async () => {
  await expect(
    startMock({
      rateLimit: {
        groups: { default: { limit: 30, windowSeconds: 1, burstLimit: 10, burstWindowSeconds: 0.3 } },
      },
    }),
  ).rejects.toThrow(
    'config.rateLimit.groups.default.burstWindowSeconds: must divide windowSeconds (1), got 0.3',
  );
  await expect(startMock({ rateLimit: { groups: { default: { key: 'ip' as 'address' } } } })).rejects.toThrow(
    /^options\.rateLimit\.groups\.default\.key: must be one of identity, address, route, credential$/,
  );
  await expect(
    startMock({
      rateLimit: {
        groups: { default: { algorithm: 'moving-window', limit: 5, windowSeconds: 1, burstLimit: 2 } },
      },
    }),
  ).rejects.toThrow(
    'config.rateLimit.groups.default.burstLimit: a moving-window group has no burst (fixed-window or leaky-bucket do)',
  );
  await expect(startMock({ rateLimit: { groups: { default: { windowSeconds: 0 } } } })).rejects.toThrow(
    /^options\.rateLimit\.groups\.default\.windowSeconds: must be >= 0\.001$/,
  );
});
