/**
 * The full default catalogue, fuzzing included, against the mock counting as four real limiters count
 * (bench/limiters.ts: nginx limit_req, @fastify/rate-limit, slowapi, express-rate-limit), each with the
 * profile a user who knows the limiter writes (`exact`: limit, window, key, burst, ban) and the one a user who
 * only knows "60 per 10 s" writes (`minimal`) — and against a strict limit of one route. Compressed in time
 * (60 per 1 s, 10 per 0.5 s: the same shapes, windows ten times shorter) so each run takes seconds; the real
 * 60-per-10-s runs are `npm run bench -- --only polite`.
 *
 * In each: no rule fails, none is skipped for time, the run met the limit rarely (a polite client), and the
 * politeness section says what the traffic taught about the key. With the scheduler's learning switched off
 * (GATECHECK_SCHEDULER_LEARNING=off: the key taken as declared or as identity, no key learned, no pace
 * learned) the minimal runs meet the limit hundreds of times: these tests fail (docs/design.md).
 */
import { expect, test } from '@playwright/test';
import {
  LIMITERS,
  type LimiterName,
  limiterLimit,
  limiterProfile,
  limiterSettings,
  type ProfileKind,
  profileDeclaring,
  SKIPPED_FOR_TIME,
} from '../../bench/limiters.ts';
import type { RateLimitFile } from '../../mock/access/rate-limit-settings.ts';
import { startMock } from '../../mock/server.ts';
import type { Politeness } from '../../specs/run/politeness.ts';
import { runConformance } from '../helpers/run-suite.ts';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

/** Windows ten times shorter than the real limiters' 10 s. */
const SCALE = 10;
/**
 * Fewer fuzz cases than the default keep each run to seconds; every fuzz rule still runs its minimum (10 cases:
 * specs/fuzz/engine/settings.ts), and the checks, which decide the pacing, all run.
 */
const FUZZ_CASES = 150;
/** A skip for time, of any of its kinds (the run's budget, the test's own time, Playwright's timeout). */

interface RuleVerdict {
  readonly id: string;
  readonly verdict: string;
  readonly reason?: string;
}

async function runAgainst(rateLimit: RateLimitFile, profile: unknown) {
  const mock = await startMock({ port: 0, rateLimit });
  try {
    const run = await runConformance({ profile, env: { BASE_URL: mock.url }, timeoutMs: 170_000 });
    return { rules: run.rules, politeness: run.run.politeness as Politeness };
  } finally {
    await mock.close();
  }
}

function expectNoVerdictFromTheClock(rules: readonly RuleVerdict[]): void {
  expect(rules.length).toBeGreaterThan(60);
  expect(rules.filter((r) => r.verdict === 'fail').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
  expect(
    rules
      .filter((r) => r.verdict === 'skip' && SKIPPED_FOR_TIME.test(r.reason ?? ''))
      .map((r) => `${r.id}: ${r.reason}`),
  ).toEqual([]);
}

/** The limiters that count per address: a minimal profile learns that from its first limiting event. */
const PER_ADDRESS: readonly LimiterName[] = ['nginx', 'fastify', 'express'];

for (const name of LIMITERS) {
  for (const kind of ['exact', 'minimal'] as const satisfies readonly ProfileKind[]) {
    const { limit, windowSeconds } = limiterLimit(name, SCALE);
    test(`${name}, ${kind} profile, ${limit} per ${windowSeconds} s → no failure, no skip for time, the limit met rarely, the key said right`, async () => {
      const { rules, politeness } = await runAgainst(
        limiterSettings(name, SCALE),
        // A minimal profile against a limit per address learns the key from its first limiting event: the
        // fuzz phase's traffic past the address's limit, kept at its former size.
        limiterProfile(name, kind, SCALE, {
          fuzzCases: kind === 'minimal' && PER_ADDRESS.includes(name) ? 2 * FUZZ_CASES : FUZZ_CASES,
        }),
      );
      expectNoVerdictFromTheClock(rules);
      // A polite client: at most a few limiting events (jitter on a loaded 2-core host; for a minimal profile
      // against a limit per address, the one that teaches the key), each a handful of answers in flight.
      expect(politeness.limitedAnswers, JSON.stringify(politeness.reasons)).toBeLessThanOrEqual(30);
      const summary = politeness.key?.summary ?? '';
      if (kind === 'exact') expect(summary).toMatch(/^declared key (address|endpoint|credential)/);
      else if (PER_ADDRESS.includes(name))
        expect(summary).toMatch(
          /^key not declared; the target limits per client address .*add `key: "address"`/,
        );
      // slowapi counts per route: the fuzz phase's credentials, each a counter of its own per identity, go past
      // one route's limit and teach the key; per credential, the reading the run starts from is right. The route
      // is what the run adds and advises first; the address may still fit the same answers (its counter was not
      // served past a fixed window's worst case afterwards), and then the summary says so too.
      else if (name === 'slowapi')
        expect(summary).toMatch(
          /^key not declared; the target limits per route(, or per client address: its limited answers fit both)? .*add `key: "endpoint"`/,
        );
      else expect(summary).toMatch(/^key not declared: paced per credential/);
      if (kind === 'exact') expect(politeness.key?.learned).toEqual([]);
      // Each profile's limit is the limiter's own: no run says the target keeps a lower one (a false claim would
      // print a revised estimate and tell the user to declare less).
      expect(politeness.overDeclared ?? [], (politeness.notes ?? []).join('\n')).toEqual([]);
    });
  }
}

/** Only /protected is limited, 10 requests per 0.5 s per address; every other route is out of reach. */
const STRICT_ROUTE: RateLimitFile = {
  groups: {
    default: { limit: 1_000_000, windowSeconds: 10, failedAttemptLimit: 1_000_000, banSeconds: 0 },
    strict: { key: 'address', limit: 10, windowSeconds: 0.5, banSeconds: 0 },
  },
  routes: { '/protected': 'strict' },
};

for (const kind of ['exact', 'minimal'] as const) {
  test(`a strict limit of the protected route alone (10 per 0.5 s), ${kind} profile → no failure, no skip for time, the other routes not paced by it`, async () => {
    const profile = limiterProfile('nginx', 'minimal', SCALE, { fuzzCases: 100 }) as unknown as Record<
      string,
      unknown
    >;
    profile.rateLimit =
      kind === 'exact'
        ? {
            limit: 10,
            windowSeconds: 0.5,
            key: 'address',
            appliesTo: 'endpoint',
            endpoint: { path: '/protected', method: 'GET', schemes: ['bearer', 'basic'] },
          }
        : { limit: 10, windowSeconds: 0.5 };
    const { rules, politeness } = await runAgainst(STRICT_ROUTE, profile);
    expectNoVerdictFromTheClock(rules);
    expect(politeness.limitedAnswers, JSON.stringify(politeness.reasons)).toBeLessThanOrEqual(30);
    const counters = new Map((politeness.counters ?? []).map((c) => [c.counter, c]));
    if (kind === 'minimal') {
      // Each route its own counter, none for the whole address: the protected route's limit slows no other.
      expect(counters.has('address')).toBe(false);
      expect(counters.get('endpoint /protected')?.pacePerSecond).toBeCloseTo(17);
      expect(counters.get('endpoint /users')?.requests).toBeGreaterThan(0);
    } else {
      // Declared for that route alone: its requests paced, every other one unpaced (by the GCRA: a window log
      // of 9 per 0.6 s would go slower).
      expect(counters.get('address')?.pacePerSecond).toBeCloseTo(17);
      expect(counters.get('other')?.pacePerSecond).toBeUndefined();
    }
  });
}

/**
 * Two limits on one target (#38), as the mock counts them (`alongside`): NestJS-like — 3 per 0.1 s and 100 per
 * 6 s per address (3 per second and 100 per minute, ten times shorter) — and a strict route (GET /limited, 10
 * per 1 s) beside a global 60 per 1 s. Declared as a list, each limit paces what it counts and the rate-limit
 * rules' burst meets the entry of its endpoint.
 */
const TWO_LIMITS: Readonly<Record<'nestjs' | 'login', { mock: RateLimitFile; profile: unknown }>> = {
  nestjs: {
    mock: {
      headers: 'x-ratelimit',
      groups: {
        default: {
          key: 'address',
          algorithm: 'client-window',
          limit: 3,
          windowSeconds: 0.1,
          banSeconds: 0,
          alongside: ['long'],
        },
        long: { key: 'address', algorithm: 'client-window', limit: 100, windowSeconds: 6, banSeconds: 0 },
      },
    },
    profile: profileDeclaring(
      [
        { name: 'short', limit: 3, windowSeconds: 0.1, key: 'address' },
        { name: 'long', limit: 100, windowSeconds: 6, key: 'address' },
      ],
      { fuzzCases: 100 },
    ),
  },
  login: {
    mock: {
      headers: 'none',
      groups: {
        default: {
          key: 'address',
          limit: 60,
          windowSeconds: 1,
          banSeconds: 0,
          failedAttemptLimit: 1_000_000,
        },
        login: { key: 'address', limit: 10, windowSeconds: 1, banSeconds: 0, alongside: ['default'] },
      },
      routes: { '/limited': 'login' },
    },
    profile: profileDeclaring(
      [
        { name: 'global', limit: 60, windowSeconds: 1, key: 'address' },
        {
          name: 'login',
          limit: 10,
          windowSeconds: 1,
          key: 'address',
          routes: ['/limited'],
          endpoint: { path: '/limited', method: 'GET', schemes: ['bearer', 'basic'] },
        },
      ],
      { fuzzCases: FUZZ_CASES },
    ),
  },
};

for (const [name, target] of Object.entries(TWO_LIMITS)) {
  test(`two limits (${name}-like), declared as a list → no failure, no skip for time, the limits met rarely, each reported`, async () => {
    const { rules, politeness } = await runAgainst(target.mock, target.profile);
    expectNoVerdictFromTheClock(rules);
    expect(politeness.limitedAnswers, JSON.stringify(politeness.reasons)).toBeLessThanOrEqual(30);
    const limited = rules.find((r) => r.id === 'ratelimit.429.exceeded');
    expect(limited?.verdict, limited?.reason).toBe('pass');
    expect(politeness.key?.summary).toMatch(
      name === 'nestjs'
        ? /^short \(3 per 0\.1 s per address\): declared key address.*; long \(100 per 6 s per address\): declared key address/
        : /^global \(60 per 1 s per address\): declared key address.*; login \(10 per 1 s per address\): declared key address/,
    );
  });
}
