/**
 * The mock's @fastify/rate-limit emulation (fixtures/limiters/fastify.mock.json: a window from the client's
 * first request, X-RateLimit-*, a ban → 403) against the real plugin (a dev dependency, on a loopback port:
 * bench/fastify-limiter.ts). The plugin counts every request of the window, limited ones included, and answers
 * 403 once `current - max > ban` (its index.js), with the same X-RateLimit fields and Retry-After as its 429,
 * until the window ends. The same sequence of requests must get the same statuses and fields from both.
 */
import { expect, test } from '@playwright/test';
import { startFastifyLimiter } from '../../../bench/fastify-limiter.ts';
import { limitedMockPerTest } from '../control/control-support.ts';
import { type Answer, call } from '../mock-support.ts';

const limitedMock = limitedMockPerTest();
const MAX = 5;
const BAN = 2;

/** Status, Retry-After present, X-RateLimit-Remaining: what a client of either sees per answer. */
const seen = (a: Answer) =>
  `${a.status} retry-after:${a.header('retry-after') === undefined ? 'no' : 'yes'} remaining:${a.header('x-ratelimit-remaining')}`;

test('the same requests get the same answers from the mock’s emulation and from the real plugin, ban included', async () => {
  const real = await startFastifyLimiter({ max: MAX, timeWindowMs: 10_000, ban: BAN });
  try {
    const mock = await limitedMock({
      headers: 'x-ratelimit',
      groups: {
        default: {
          key: 'address',
          algorithm: 'client-window',
          limit: MAX,
          windowSeconds: 10,
          banAfter: BAN,
          banSeconds: 0.001,
        },
      },
    });
    const fromReal: string[] = [];
    const fromMock: string[] = [];
    for (let i = 0; i < MAX + BAN + 3; i++) {
      fromReal.push(seen(await call(real.url, 'GET', '/users')));
      fromMock.push(
        seen(await call(mock.url, 'GET', '/users', { headers: { 'x-forwarded-for': '203.0.113.9' } })),
      );
    }
    expect(fromReal.slice(MAX, MAX + BAN + 1).map((s) => s.split(' ')[0])).toEqual(['429', '429', '403']);
    expect(fromMock).toEqual(fromReal);
  } finally {
    await real.stop();
  }
});
