/**
 * The run scheduler's logic with a hand-moved clock (specs/run/): the pace it keeps, what counts as a limited
 * answer and how long it asks to wait, the pause every worker obeys, the learned pace, exclusive use, the
 * budgets, and which counter a request counts against.
 */
import { generateKeyPairSync } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { SignJWT } from 'jose';
import type { Profile } from '../../specs/profile/types.ts';
import { bucketer } from '../../specs/run/buckets.ts';
import {
  RunCoordinator,
  SPELLINGS_COUNTED,
  type TargetPolicy,
  UNROUTED_COUNTED,
} from '../../specs/run/coordinator.ts';
import { declaredRateHint, limitedAnswer, resetHintMs } from '../../specs/run/limited-answer.ts';
import { Pacer, paceForDeclared, paceForLimit, type WindowPacer } from '../../specs/run/pacer.ts';
import { keySummary } from '../../specs/run/politeness.ts';
import {
  counterOf,
  decodeScope,
  encodeScope,
  isUnroutedScope,
  parsed,
  type RateKey,
} from '../../specs/run/scopes.ts';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const NO_BAN = { banDeclared: false, limitedRecently: false };

/** Most of `times` within any span of `ms`. */
function mostWithin(times: readonly number[], ms: number): number {
  let most = 0;
  for (let lo = 0, hi = 0; hi < times.length; hi++) {
    while ((times[hi] ?? 0) - (times[lo] ?? 0) >= ms) lo++;
    most = Math.max(most, hi - lo + 1);
  }
  return most;
}

test.describe('pacer', () => {
  test('GCRA: `burst` requests back to back, then one every 1/rate s', () => {
    const p = new Pacer(10, 3);
    const at = Array.from({ length: 6 }, () => p.reserve(0) - 0);
    expect(at).toEqual([0, 0, 0, 100, 200, 300]);
  });

  test('paceForLimit keeps every span of one window under the limit, whatever its phase', () => {
    for (const [limit, windowSeconds] of [
      [60, 10],
      [100, 2],
      [300, 10],
      [5, 1],
    ] as const) {
      const p = paceForLimit(limit, windowSeconds);
      const times = Array.from({ length: limit * 5 }, () => p.reserve(0));
      // At most 95 % of the limit in any span of one window: the rest absorbs jitter.
      expect(mostWithin(times, windowSeconds * 1000), `${limit}/${windowSeconds}s`).toBeLessThanOrEqual(
        0.95 * limit,
      );
      // …and uses most of it: 90 % of the limit's rate over the run where the limit is not tiny.
      const rate = (times.length - 1) / ((times.at(-1) ?? 1) / 1000);
      expect(rate).toBeGreaterThanOrEqual(((limit >= 20 ? 0.9 : 0.7) * limit) / windowSeconds - 1e-9);
    }
  });

  test('the key declared and no burst: a window log — 95 % of the limit at once, then a window (and its slack) later; the GCRA where a log would go much slower', () => {
    const log = paceForDeclared(20, 10, { wholeLimit: true });
    const times = Array.from({ length: 60 }, () => (log as WindowPacer).reserve(0));
    expect(times.filter((t) => t === 0)).toHaveLength(19);
    expect(times[19]).toBe(10_250);
    expect(mostWithin(times, 10_000)).toBeLessThanOrEqual(19);
    expect(log.perSecond).toBeGreaterThan(paceForLimit(20, 10).perSecond);
    // 3 per 0.1 s: a log of 2 per 0.2 s would go at 10/s, the GCRA at 18.5/s; 10 per 0.5 s: 15/s against 17/s.
    expect(paceForDeclared(3, 0.1, { wholeLimit: true })).toBeInstanceOf(Pacer);
    expect(paceForDeclared(10, 0.5, { wholeLimit: true }).perSecond).toBeCloseTo(17);
    // A declared burst, or the key not declared: the GCRA.
    expect(paceForDeclared(20, 10, { burst: 5, wholeLimit: true })).toBeInstanceOf(Pacer);
    expect(paceForDeclared(20, 10, { wholeLimit: false })).toBeInstanceOf(Pacer);
  });

  test('a declared burst B is kept in every span of B × window / limit', () => {
    const p = paceForLimit(40, 1, 10);
    const times = Array.from({ length: 200 }, () => p.reserve(0));
    expect(mostWithin(times, 250)).toBeLessThanOrEqual(0.95 * 10);
    expect(mostWithin(times, 1000)).toBeLessThanOrEqual(0.95 * 40);
  });
});

test.describe('limited answers', () => {
  test('429 is limited; its wait comes from Retry-After, RateLimit t=, or RateLimit-Reset', () => {
    expect(limitedAnswer({ status: 429, headers: { 'retry-after': '7' } }, NO_BAN, NOW)).toEqual({
      kind: 'limited',
      waitMs: 7000,
      reason: '429',
    });
    expect(resetHintMs({ ratelimit: '"default";r=0;t=5, "burst";r=0;t=1' }, NOW)).toBe(5000);
    expect(resetHintMs({ 'ratelimit-reset': '3' }, NOW)).toBe(3000);
    expect(resetHintMs({ ratelimit: 'limit=60, remaining=0, reset=7' }, NOW)).toBe(7000);
    expect(resetHintMs({ 'x-ratelimit-reset': '4' }, NOW)).toBe(4000);
    expect(resetHintMs({ 'x-ratelimit-reset': String(NOW / 1000 + 12) }, NOW)).toBe(12_000);
    expect(resetHintMs({ 'retry-after': 'Mon, 23 Nov 2026 12:00:09 GMT' }, NOW)).toBe(9000);
    expect(limitedAnswer({ status: 429, headers: {} }, NO_BAN, NOW)?.waitMs).toBeUndefined();
  });

  test('403 is a ban only with Retry-After, or during a declared ban after a limited answer', () => {
    expect(limitedAnswer({ status: 403, headers: {} }, NO_BAN, NOW)).toBeUndefined();
    expect(
      limitedAnswer({ status: 403, headers: {} }, { banDeclared: true, limitedRecently: false }, NOW),
    ).toBeUndefined();
    expect(limitedAnswer({ status: 403, headers: { 'retry-after': '30' } }, NO_BAN, NOW)).toMatchObject({
      kind: 'banned',
      waitMs: 30_000,
    });
    expect(
      limitedAnswer(
        { status: 403, headers: {} },
        { banDeclared: true, banSeconds: 5, limitedRecently: true },
        NOW,
      ),
    ).toMatchObject({ kind: 'banned', waitMs: 5000 });
    expect(limitedAnswer({ status: 200, headers: { 'retry-after': '1' } }, NO_BAN, NOW)).toBeUndefined();
  });

  test('503 is limited when it says when to come back (Retry-After), or when the profile declares the limiter answers 503', () => {
    expect(limitedAnswer({ status: 503, headers: {} }, NO_BAN, NOW)).toBeUndefined();
    expect(limitedAnswer({ status: 503, headers: { 'retry-after': '2' } }, NO_BAN, NOW)).toMatchObject({
      kind: 'limited',
      waitMs: 2000,
    });
    expect(limitedAnswer({ status: 503, headers: {} }, { ...NO_BAN, limiterStatus: 503 }, NOW)).toMatchObject(
      { kind: 'limited', waitMs: undefined, reason: '503 (the declared limiter status)' },
    );
  });

  test('the rate an answer declares: RateLimit-Policy q/w, the slowest of several', () => {
    expect(declaredRateHint({ 'ratelimit-policy': '"default";q=60;w=10, "burst";q=10;w=1' })).toBe(6);
    expect(declaredRateHint({ 'ratelimit-limit': '100, 100;w=60' })).toBeCloseTo(100 / 60);
    expect(declaredRateHint({})).toBeUndefined();
    // express-rate-limit's draft-7 and draft-8 fields.
    expect(declaredRateHint({ 'ratelimit-policy': '60;w=10' })).toBe(6);
    expect(declaredRateHint({ 'ratelimit-policy': '"60-in-10sec"; q=60; w=10; pk=:ZGQ5:' })).toBe(6);
  });
});

/** A request of `route` by `identity` ('' for none), as a worker describes it (specs/run/buckets.ts). */
const req = (route: string, identity = '', counted = true) =>
  encodeScope({ counted, route, identity, credential: identity === '' ? '' : `digest-${identity}` });

function slots(answer: ReturnType<RunCoordinator['lease']>): readonly number[] {
  if (!('at' in answer)) throw new Error(`expected slots, got ${JSON.stringify(answer)}`);
  return answer.at;
}

test.describe('coordinator', () => {
  const policy = (over: Partial<TargetPolicy> = {}): TargetPolicy => ({
    maxRequests: 10_000,
    maxSeconds: 600,
    ...over,
  });
  const clock = () => {
    let now = NOW;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  test('nothing declared: slots at once, until a limited answer pauses every caller and sets a pace', () => {
    const c = clock();
    const co = new RunCoordinator(c.now);
    co.register('t', policy());
    // Unpaced slots come in a lease of at least 16, all now (a worker need not ask for each request).
    const first = slots(co.lease('t', req('/a'), 4, 'w1'));
    expect(first.length >= 4 && first.every((t) => t === NOW)).toBe(true);
    const { resumeAt } = co.limited('t', { kind: 'limited', waitMs: 2000, reason: '429' }, req('/a'));
    expect(resumeAt).toBe(NOW + 2100);
    // Another worker, another route: paused too (nothing declared: the whole run is one counter).
    expect(co.lease('t', req('/b'), 1, 'w2')).toEqual({ retryAt: NOW + 2100 });
    c.advance(2100);
    const after = slots(co.lease('t', req('/b'), 3, 'w2'));
    // A pace now: the slots are spread, not all at once.
    expect(new Set(after).size).toBe(after.length);
    expect(co.politeness()).toMatchObject({ limitedAnswers: 1, waitedMs: 2100, slowestWaitMs: 2100 });
  });

  test('a limited answer naming no wait: the declared window; without one, a wait learned a second at a time — never doubling', () => {
    const c = clock();
    const declared = new RunCoordinator(c.now);
    declared.register('t', policy({ declared: { limit: 60, windowSeconds: 10, key: 'address' } }));
    const bare = { kind: 'limited', waitMs: undefined, reason: '429' } as const;
    expect(declared.limited('t', bare, req('/a')).resumeAt).toBe(NOW + 10_100);
    const co = new RunCoordinator(c.now);
    co.register('t', policy());
    expect(co.limited('t', bare, req('/a')).resumeAt).toBe(NOW + 1100);
    // Same event (answers to requests in flight together): the same wait.
    expect(co.limited('t', bare, req('/a')).resumeAt).toBe(NOW + 1100);
    // Limited again right after the pause: the wait was too short, one second more — and again.
    c.advance(1200);
    expect(co.limited('t', bare, req('/a')).resumeAt).toBe(NOW + 1200 + 2100);
    c.advance(2200);
    expect(co.limited('t', bare, req('/a')).resumeAt).toBe(NOW + 3400 + 3100);
    // A later event, long after the pause ended: the learned wait stands (3 s), it does not grow.
    c.advance(30_000);
    expect(co.limited('t', bare, req('/a')).resumeAt).toBe(c.now() + 3100);
  });

  test('declared per address: one paced counter for the whole run', () => {
    const co = new RunCoordinator(() => NOW);
    co.register('t', policy({ declared: { limit: 20, windowSeconds: 2, key: 'address' } }));
    // (More than the limit between them: the key declared, the target takes its whole limit at once.)
    const a = slots(co.lease('t', req('/a', 'admin'), 12, 'w1'));
    const b = slots(co.lease('t', req('/b'), 12, 'w2'));
    const times = [...a, ...b].sort((x, y) => x - y);
    expect(mostWithin(times, 2000)).toBeLessThanOrEqual(20);
    expect(times.at(-1)).toBeGreaterThan(NOW);
  });

  test('declared per identity: a limit met by one identity pauses that identity only', () => {
    const co = new RunCoordinator(() => NOW);
    co.register('t', policy({ declared: { limit: 300, windowSeconds: 10, key: 'identity' } }));
    co.limited('t', { kind: 'limited', waitMs: 5000, reason: '429' }, req('/a', 'admin'));
    expect(co.lease('t', req('/a', 'admin'), 1, 'w1')).toMatchObject({ retryAt: NOW + 5100 });
    expect(slots(co.lease('t', req('/a', 'user'), 1, 'w1'))[0]).toBe(NOW);
    expect(slots(co.lease('t', req('/a'), 1, 'w1'))[0]).toBe(NOW);
  });

  test('declared per identity: requests without a credential share the address counter at the declared pace; a credential of no declared identity is an identity of its own', () => {
    const co = new RunCoordinator(() => NOW);
    co.register('t', policy({ declared: { limit: 20, windowSeconds: 10, key: 'identity' } }));
    // Without a credential, over several routes: one counter, paced from the first request — the key declared,
    // up to 95 % of the limit at once (the target takes its whole limit), the rest a window later.
    const anon = [
      ...slots(co.lease('t', req('/a0'), 12, 'w1')),
      ...slots(co.lease('t', req('/a1'), 12, 'w1')),
    ];
    expect(anon.filter((t) => t === NOW)).toHaveLength(19);
    expect(Math.min(...anon.filter((t) => t > NOW))).toBeGreaterThanOrEqual(NOW + 10_000);
    // Unknown credentials: each its own counter, so each one's first request goes at once.
    const strangers = Array.from({ length: 50 }, (_, i) =>
      encodeScope({ counted: true, route: '/a0', identity: '', credential: `stranger-${i}` }),
    );
    expect(strangers.map((r) => slots(co.lease('t', r, 1, 'w1'))[0])).toEqual(strangers.map(() => NOW));
    // One of them limited: that one pauses, the others and the declared identities do not.
    co.limited('t', { kind: 'limited', waitMs: 3000, reason: '429' }, strangers[0] as string);
    expect(co.lease('t', strangers[0] as string, 1, 'w1')).toEqual({ retryAt: NOW + 3100 });
    // (its second request: one pace interval after its first, not the 3 s pause)
    expect(slots(co.lease('t', strangers[1] as string, 1, 'w1'))[0]).toBeLessThan(NOW + 1000);
    expect(slots(co.lease('t', req('/a0', 'admin'), 1, 'w1'))[0]).toBe(NOW);
    expect(co.politeness().key?.learned).toEqual([]);
  });

  test('declared for one endpoint per address: its requests are paced, every other request is not', () => {
    const co = new RunCoordinator(() => NOW);
    co.register(
      't',
      policy({ declared: { limit: 20, windowSeconds: 2, key: 'address', onlyEndpoint: true } }),
    );
    const limited = slots(co.lease('t', req('/limited'), 24, 'w1'));
    const other = slots(co.lease('t', req('/users', '', false), 24, 'w1'));
    expect(limited.at(-1)).toBeGreaterThan(NOW);
    expect(other.every((t) => t === NOW)).toBe(true);
  });

  test('exclusive use: others wait; the holder is neither paused nor paced; the cooldown pauses the run', () => {
    const c = clock();
    const co = new RunCoordinator(c.now);
    co.register('t', policy({ declared: { limit: 10, windowSeconds: 1, key: 'address' } }));
    const start = co.exclusive('t', 'burst');
    expect(start).toMatchObject({ startAt: expect.any(Number) });
    expect(co.exclusive('t', 'other')).toEqual({ retryAt: NOW + 100 });
    expect(co.lease('t', req('/a'), 1, 'other')).toEqual({ retryAt: NOW + 100 });
    const burst = co.lease('t', req('/a', 'ratelimit'), 30, 'burst', true);
    expect(burst).toMatchObject({ at: Array.from({ length: 30 }, () => NOW) });
    co.release('t', 'burst', 1500);
    expect(co.lease('t', req('/a'), 1, 'other')).toEqual({ retryAt: NOW + 1500 });
    // Per identity alone, the burst's identity has a counter of its own: no exclusive use.
    const perIdentity = new RunCoordinator(c.now);
    perIdentity.register('t', policy({ declared: { limit: 10, windowSeconds: 1, key: 'identity' } }));
    expect(perIdentity.exclusive('t', 'burst')).toEqual({ notNeeded: true });
  });

  test('budgets: maxRequests counts every slot; a wait past maxSeconds is not affordable', () => {
    const c = clock();
    const co = new RunCoordinator(c.now);
    co.register('t', policy({ maxRequests: 20, maxSeconds: 10 }));
    expect(co.lease('t', req('/a'), 20, 'w')).toMatchObject({ at: expect.any(Array) });
    expect(co.lease('t', req('/a'), 1, 'w')).toEqual({ exhausted: 'budget.maxRequests (20) is spent' });
    const co2 = new RunCoordinator(c.now);
    co2.register('t', policy({ maxSeconds: 10 }));
    expect(
      co2.limited('t', { kind: 'banned', waitMs: 30_000, reason: '403 with Retry-After' }, req('/a')),
    ).toMatchObject({ affordable: false });
    c.advance(10_000);
    expect(co2.lease('t', req('/a'), 1, 'w')).toEqual({ exhausted: 'budget.maxSeconds (10 s) has run out' });
  });
});

test.describe('learning the key', () => {
  const LIMIT = { limit: 60, windowSeconds: 10 } as const;
  const policy = (key?: RateKey): TargetPolicy => ({
    declared: { ...LIMIT, ...(key === undefined ? {} : { key }) },
    maxRequests: 100_000,
    maxSeconds: 3600,
  });
  /**
   * Each of `requests` (scopes) sends again 1 ms after its last answer, as the scheduler allows, for `ms` of a
   * hand-moved clock (a discrete-event run); `limits(scope, at)` says whether the target limits that request.
   */
  function drive(
    co: RunCoordinator,
    now: { t: number },
    requests: readonly string[],
    ms: number,
    limits: (scope: string, at: number) => boolean,
  ): { sent: Map<string, number[]>; limited: number } {
    const sent = new Map<string, number[]>();
    let limited = 0;
    const end = now.t + ms;
    const queue = requests.map((r) => ({ t: now.t, r, send: false }));
    for (;;) {
      queue.sort((a, b) => a.t - b.t);
      const event = queue.shift();
      if (event === undefined || event.t >= end) break;
      now.t = Math.max(now.t, event.t);
      const { r } = event;
      if (!event.send) {
        const answer = co.lease('t', r, 1, 'w');
        if ('exhausted' in answer) throw new Error(answer.exhausted);
        queue.push(
          'retryAt' in answer
            ? { t: answer.retryAt, r, send: false }
            : { t: answer.at[0] as number, r, send: true },
        );
        continue;
      }
      sent.set(r, [...(sent.get(r) ?? []), now.t]);
      co.sent('t', [[r, now.t]]);
      if (limits(r, now.t)) {
        limited++;
        co.limited('t', { kind: 'limited', waitMs: undefined, reason: '429' }, r);
      }
      queue.push({ t: now.t + 1, r, send: false });
    }
    return { sent, limited };
  }

  /** A target counting `limit` per `windowMs` (sliding) per counter, `counterOf` deciding the counter. */
  function slidingTarget(counterOfScope: (scope: string) => string, limit = LIMIT.limit, windowMs = 10_000) {
    const seen = new Map<string, number[]>();
    return (scope: string, at: number) => {
      const id = counterOfScope(scope);
      const times = (seen.get(id) ?? []).filter((t) => t > at - windowMs);
      times.push(at);
      seen.set(id, times);
      return times.length > limit;
    };
  }

  /** The send times of `scopes` together, in order, from `since` on: what a target counting them as one sees. */
  function sentTogether(sent: ReadonlyMap<string, number[]>, scopes: readonly string[], since = 0): number[] {
    return scopes
      .flatMap((s) => sent.get(s) ?? [])
      .filter((t) => t >= since)
      .sort((a, b) => a - b);
  }

  const protectedAdmin = req('/protected', 'admin');
  const protectedAnon = req('/protected');
  const users = req('/users');
  const adminRoute = req('/admin', 'admin');
  const traffic = [protectedAdmin, protectedAnon, users, adminRoute];
  const routeOf = (s: string) => s.split('\t')[1] ?? '';
  /** Fuzz cases: each its own credential (a counter of its own), all to /protected. */
  const fuzz = Array.from({ length: 20 }, (_, i) =>
    encodeScope({ counted: true, route: '/protected', identity: '', credential: `fuzz-${i}` }),
  );

  /** A coordinator of its own, with nothing but the limit declared, driven for `ms`; its politeness at the end. */
  function driveAlone(
    requests: readonly string[],
    ms: number,
    limits: (scope: string, at: number) => boolean,
  ) {
    const now = { t: NOW };
    const co = new RunCoordinator(() => now.t);
    co.register('t', policy());
    const { sent, limited } = drive(co, now, requests, ms, limits);
    return { sent, limited, p: co.politeness() };
  }

  test('key not declared, target per address: one limiting event adds `address`, and no other', () => {
    const { limited, p } = driveAlone(
      traffic,
      120_000,
      slidingTarget(() => 'address'),
    );
    expect(p.key?.inForce).toContain('address');
    expect(p.key?.learned.map((l) => l.key)).toEqual(['address']);
    expect(p.key?.summary).toMatch(
      /key not declared; the target limits per client address .*add `key: "address"`/,
    );
    // One event: the answers to the requests in flight then, no more.
    expect(limited).toBeLessThanOrEqual(traffic.length);
  });

  test('key not declared, target per route: per credential no route goes past its limit here, nothing to learn', () => {
    const now = { t: NOW };
    const co = new RunCoordinator(() => now.t);
    co.register('t', policy());
    const { limited } = drive(co, now, traffic, 60_000, slidingTarget(routeOf));
    expect(limited).toBe(0);
    expect(co.politeness().key?.summary).toMatch(/key not declared: paced per credential/);
  });

  test('key not declared, target per credential: credentials the public route serves as anonymous are not held to the per-address pace of the requests without one', () => {
    const now = { t: NOW };
    const co = new RunCoordinator(() => now.t);
    co.register('t', policy());
    // Fuzz cases on the public route, each with a credential that verifies as no identity, beside anonymous requests.
    const forged = Array.from({ length: 10 }, (_, i) =>
      encodeScope({
        counted: true,
        route: '/users',
        identity: '',
        credential: `forged-${i}`,
        publicRoute: true,
      }),
    );
    const anonymous = req('/users');
    const perCredential = (scope: string) => decodeScope(scope).credential || 'address';
    const { sent, limited } = drive(co, now, [...forged, anonymous], 20_000, slidingTarget(perCredential));
    expect(limited).toBe(0);
    // Each credential near the declared pace (0.9 × 6 per s), not a share of one per-address counter.
    for (const f of forged) expect((sent.get(f) ?? []).length).toBeGreaterThan(0.8 * 0.9 * 6 * 20);
    expect(co.politeness().key?.summary).toMatch(/key not declared: paced per credential/);
  });

  /** Requests without a credential to no declared route (a path spelling's 404): the run expects the target to answer them before its limit. */
  const unroutedAnon = encodeScope({
    counted: true,
    route: '/ADMIN',
    identity: '',
    credential: '',
    unrouted: true,
  });
  const isUnrouted = (scope: string) => decodeScope(scope).unrouted === true;
  const learnedUnrouted = (co: RunCoordinator) =>
    (co.politeness().notes ?? []).some((n) => n.startsWith(UNROUTED_COUNTED));

  test('requests to no declared route or method are paced apart from the rest of their counter: a target that answers them before its limit never limits, and both go at the declared pace', () => {
    const now = { t: NOW };
    const co = new RunCoordinator(() => now.t);
    co.register('t', policy());
    // The target counts per address only the requests it routes (the mock, @fastify/rate-limit).
    const target = slidingTarget((scope) => (isUnrouted(scope) ? `not counted ${Math.random()}` : 'address'));
    const { sent, limited } = drive(co, now, [users, unroutedAnon], 20_000, target);
    expect(limited).toBe(0);
    // Each near the declared pace (0.9 × 6 per s), not half of one shared counter's.
    for (const r of [users, unroutedAnon])
      expect((sent.get(r) ?? []).length).toBeGreaterThan(0.8 * 0.9 * 6 * 20);
    expect(learnedUnrouted(co)).toBe(false);
  });

  for (const key of [undefined, 'address'] as const)
    test(`${key === undefined ? 'key not declared' : 'declared per address'}, a target that counts them too (nginx limit_req): one limiting event, and from then on they are paced with the rest`, () => {
      const now = { t: NOW };
      const co = new RunCoordinator(() => now.t);
      co.register('t', policy(key));
      const { sent, limited } = drive(
        co,
        now,
        [users, unroutedAnon],
        60_000,
        slidingTarget(() => 'address'),
      );
      // The answers to the two requests in flight at the event, no more.
      expect(limited).toBeGreaterThan(0);
      expect(limited).toBeLessThanOrEqual(2);
      const p = co.politeness();
      expect(learnedUnrouted(co)).toBe(true);
      // What was learned is that they count, not another key.
      expect(p.key?.learned ?? []).toEqual([]);
      // The last 20 s: both together within the declared limit per window.
      expect(
        mostWithin(sentTogether(sent, [users, unroutedAnon], now.t - 20_000), 10_000),
      ).toBeLessThanOrEqual(LIMIT.limit);
    });

  test('an answer to such a request that states the requests left (RateLimit, X-RateLimit-Remaining) teaches the same before any limited answer: the run is never limited', () => {
    const now = { t: NOW };
    const co = new RunCoordinator(() => now.t);
    co.register('t', policy());
    // A routed request's answer with the field says nothing new; the unrouted one's does.
    co.counted('t', users);
    expect(learnedUnrouted(co)).toBe(false);
    co.counted('t', unroutedAnon);
    expect(co.politeness().notes).toEqual([expect.stringMatching(/stated the requests left/)]);
    const { sent, limited } = drive(
      co,
      now,
      [users, unroutedAnon],
      30_000,
      slidingTarget(() => 'address'),
    );
    expect(limited).toBe(0);
    expect(mostWithin(sentTogether(sent, [users, unroutedAnon]), 10_000)).toBeLessThanOrEqual(LIMIT.limit);
  });

  test('a limited answer to a request the target routes says they count when its counter and its unrouted twin together had gone past the limit, and not otherwise', () => {
    for (const withUnrouted of [true, false]) {
      const now = { t: NOW };
      const co = new RunCoordinator(() => now.t);
      co.register('t', policy());
      // 40 requests of each within 8 s: within the declared 60 per 10 s apart, past it together.
      for (let i = 0; i < 40; i++) {
        co.sent('t', [[users, now.t]]);
        if (withUnrouted) co.sent('t', [[unroutedAnon, now.t]]);
        now.t += 200;
      }
      co.limited('t', { kind: 'limited', waitMs: undefined, reason: '429' }, users);
      expect(learnedUnrouted(co)).toBe(withUnrouted);
      expect(co.politeness().key?.learned ?? []).toEqual([]);
    }
  });

  /** One credential in two spellings (`Bearer X`, `bearer X`): one digest as parsed, one each as sent. */
  const spelt = (spelling: string) =>
    encodeScope({ counted: true, route: '/protected', identity: '', credential: 'cred-a', spelling });
  const firstSpelling = spelt('as-sent-1');
  const otherSpelling = spelt('as-sent-2');
  const learnedSpellings = (co: RunCoordinator) => (co.politeness().notes ?? []).includes(SPELLINGS_COUNTED);

  test("per credential, a credential's other spelling is paced apart from its first: a target that keys the field as sent never limits, and both go at the declared pace", () => {
    const now = { t: NOW };
    const co = new RunCoordinator(() => now.t);
    co.register('t', policy('credential'));
    // nginx `limit_req_zone $http_authorization`: every field value its own counter.
    const asSent = slidingTarget((scope) => decodeScope(scope).spelling ?? '');
    const { sent, limited } = drive(co, now, [firstSpelling, otherSpelling], 20_000, asSent);
    expect(limited).toBe(0);
    for (const r of [firstSpelling, otherSpelling])
      expect((sent.get(r) ?? []).length).toBeGreaterThan(0.8 * 0.9 * 6 * 20);
    expect(learnedSpellings(co)).toBe(false);
  });

  test("per credential, a target that keys the parsed credential: one limiting event, and from then on a credential's spellings are paced as one", () => {
    const now = { t: NOW };
    const co = new RunCoordinator(() => now.t);
    co.register('t', policy('credential'));
    const asParsed = slidingTarget((scope) => decodeScope(scope).credential);
    const { sent, limited } = drive(co, now, [firstSpelling, otherSpelling], 60_000, asParsed);
    expect(limited).toBeGreaterThan(0);
    expect(limited).toBeLessThanOrEqual(2);
    expect(learnedSpellings(co)).toBe(true);
    expect(co.politeness().key?.learned ?? []).toEqual([]);
    const late = sentTogether(sent, [firstSpelling, otherSpelling], now.t - 20_000);
    expect(mostWithin(late, 10_000)).toBeLessThanOrEqual(LIMIT.limit);
  });

  test("a limited answer to a credential's first spelling says its spellings count as one when they together had gone past the limit, and not otherwise", () => {
    for (const withOther of [true, false]) {
      const now = { t: NOW };
      const co = new RunCoordinator(() => now.t);
      co.register('t', policy('credential'));
      // 40 requests of each within 8 s: within the declared 60 per 10 s apart, past it together.
      for (let i = 0; i < 40; i++) {
        co.lease('t', firstSpelling, 1, 'w');
        co.sent('t', [[firstSpelling, now.t]]);
        if (withOther) co.sent('t', [[otherSpelling, now.t]]);
        now.t += 200;
      }
      co.limited('t', { kind: 'limited', waitMs: undefined, reason: '429' }, firstSpelling);
      expect(learnedSpellings(co)).toBe(withOther);
    }
  });

  test('key not declared, target per route, a credential per fuzz case on one route: one limiting event adds `endpoint`, and no other', () => {
    const { sent, limited, p } = driveAlone([...traffic, ...fuzz], 60_000, slidingTarget(routeOf));
    expect(p.key?.learned.map((l) => l.key)).toEqual(['endpoint']);
    expect(p.key?.summary).toMatch(/key not declared; the target limits per route .*add `key: "endpoint"`/);
    // One event: the answers to the requests in flight then.
    expect(limited).toBeLessThanOrEqual(traffic.length + fuzz.length);
    // /users, alone on its route, is not held to /protected's pace.
    expect((sent.get(users) ?? []).length).toBeGreaterThan(0.5 * 0.9 * 6 * 60);
    // The address fitted the first answers too, but it went on being served past the limit: refuted, not said.
    expect(p.key?.learned[0]?.alsoFits).toBeUndefined();
    expect(p.key?.summary).not.toMatch(/address/);
  });

  test('an answer known late (a stall): the route had gone past the limit in a window ending when the request went out → `endpoint`, where a window ending at the answer says `address`', () => {
    // A target per route, 60 per 10 s. /protected: 80 requests in 8 s, each with a credential of its own, then
    // the limited one at +8 s; its answer is known at +12 s, the requests to /users having gone on meanwhile.
    // Over the 10 s ending at +12 s, /protected's counter holds 61 (within the limit and its allowance), the
    // address's 91; over the 10 s ending at +8 s, when the limited request went out, /protected's holds 81.
    const scopeOf = (route: string, i: number) =>
      encodeScope({ counted: true, route, identity: '', credential: `c-${route}-${i}` });
    const learnedWith = (sentAt: number | undefined) => {
      const now = { t: NOW };
      const co = new RunCoordinator(() => now.t);
      co.register('t', policy());
      for (let i = 0; i < 80; i++) co.sent('t', [[scopeOf('/protected', i), NOW + i * 100]]);
      const last = scopeOf('/protected', 80);
      co.sent('t', [[last, NOW + 8000]]);
      for (let i = 0; i < 30; i++) co.sent('t', [[scopeOf('/users', i), NOW + 8100 + i * 130]]);
      now.t = NOW + 12_000;
      co.limited(
        't',
        { kind: 'limited', waitMs: undefined, reason: '429' },
        last,
        undefined,
        undefined,
        sentAt,
      );
      return co.politeness().key?.learned ?? [];
    };
    const known = learnedWith(NOW + 8000);
    expect(known.map((l) => l.key)).toEqual(['endpoint']);
    expect(known[0]?.alsoFits).toEqual([{ key: 'address', counter: 'address' }]);
    // Without the send time, the window ending at the answer: the route looks within its limit.
    expect(learnedWith(undefined).map((l) => l.key)).toEqual(['address']);
  });

  test('key not declared, target per address, every request to one route: the route is added, and the summary says the address fits the answers too', () => {
    // A minimal profile against NestJS's throttler per address: the fuzz cases, each its own credential, all
    // to /protected — the route's counter and the address's received the same requests.
    const { limited, p } = driveAlone(
      fuzz,
      60_000,
      slidingTarget(() => 'address'),
    );
    expect(limited).toBeGreaterThan(0);
    expect(p.key?.learned.map((l) => l.key)).toEqual(['endpoint']);
    expect(p.key?.learned[0]?.alsoFits).toEqual([{ key: 'address', counter: 'address' }]);
    // Not "the target limits per route": nothing the run saw tells a route's counter from the address's.
    expect(p.key?.summary).toMatch(
      /^key not declared; the target limits per route, or per client address: its limited answers fit both \(limited after \d+ requests of endpoint \/protected within [\d.]+ s\) — add `key: "endpoint"` to rateLimit, or `key: "address"` if it counts so$/,
    );
  });

  test('the summary names a coarser key only where every limited answer of the added key fits it', () => {
    const fitting = {
      key: 'endpoint' as const,
      at: NOW,
      counter: 'endpoint /protected',
      requests: 70,
      spanMs: 1000,
      alsoFits: [{ key: 'address' as const, counter: 'address' }],
    };
    expect(keySummary(undefined, ['endpoint'], [fitting, { ...fitting, at: NOW + 9000 }])).toMatch(
      /the target limits per route, or per client address: its limited answers fit both/,
    );
    // A later answer on the route whose address had not gone past the limit: the address does not fit it.
    const { alsoFits: _none, ...alone } = fitting;
    expect(keySummary(undefined, ['endpoint'], [fitting, { ...alone, at: NOW + 9000 }])).toBe(
      'key not declared; the target limits per route (limited after 70 requests of endpoint /protected within 1 s) — add `key: "endpoint"` to rateLimit',
    );
  });

  test('a key learned first and covered by one learned later is not what the summary names (nginx: one route first, then the address)', () => {
    const learned = [
      { key: 'endpoint' as const, at: NOW, counter: 'endpoint /protected', requests: 15, spanMs: 125 },
      { key: 'address' as const, at: NOW + 5000, counter: 'address', requests: 70, spanMs: 1000 },
    ];
    expect(keySummary(undefined, ['identity', 'endpoint', 'address'], learned)).toBe(
      'key not declared; the target limits per client address (limited after 70 requests of address within 1 s) — add `key: "address"` to rateLimit',
    );
    // Two keys neither covers (a route and an identity): both said.
    expect(
      keySummary(
        'credential',
        ['credential'],
        [
          learned[0] as (typeof learned)[0],
          { ...learned[0], key: 'identity' as const, counter: 'identity user' },
        ],
      ),
    ).toMatch(/^declared key credential; the target limits per route and per identity/);
  });

  test('a lone limited answer where the other keys’ counters went on being served past the limit is jitter, not a key', () => {
    const now = { t: NOW };
    const co = new RunCoordinator(() => now.t);
    co.register('t', policy());
    // Each identity at its pace for a minute, nothing limited: the address accepted ~1.8 × the limit per window.
    drive(co, now, traffic, 60_000, () => false);
    // Then one answer on the busiest route is limited (a slot that arrived late at the target).
    co.limited('t', { kind: 'limited', waitMs: undefined, reason: '429' }, protectedAnon);
    const p = co.politeness();
    expect(p.key?.learned).toEqual([]);
    expect(p.key?.inForce).toEqual(['credential']);
    expect(p.notes?.[0]).toMatch(
      /limited requests of requests without a credential \(per address\) while they went within its declared pace .* each such answer was waited out/,
    );
  });

  test('declared key identity, target per route: the key is corrected to add `endpoint`, the other routes keep their pace', () => {
    const now = { t: NOW };
    const co = new RunCoordinator(() => now.t);
    co.register('t', policy('identity'));
    // Two identities on /protected, so the route gets more than its limit while each identity keeps its own.
    const { sent, limited } = drive(
      co,
      now,
      [...traffic, req('/protected', 'user')],
      120_000,
      slidingTarget(routeOf),
    );
    const p = co.politeness();
    expect(
      p.key?.learned.map((l) => l.key),
      JSON.stringify(p.key?.learned),
    ).toEqual(['endpoint']);
    expect(p.key?.summary).toMatch(
      /declared key identity; the target limits per route .*add `key: "endpoint"`/,
    );
    expect(limited).toBeLessThan(10);
    // Requests without a credential share the address counter (declared per identity), /users with /protected's.
    expect((sent.get(users) ?? []).length).toBeGreaterThan(0.5 * 0.9 * 6 * 120);
  });

  test('a limiting event lowers a pace once, however many answers it had; quiet windows raise it back additively', () => {
    const c = clock2();
    const co = new RunCoordinator(c.now);
    co.register('t', { maxRequests: 100_000, maxSeconds: 3600 });
    for (let i = 0; i < 20; i++)
      co.sent(
        't',
        slots(co.lease('t', req('/a'), 16, 'w')).map((t) => [req('/a'), t] as const),
      );
    // 320 requests in the run's first instant, then eight answers of one event: half the rate reached over the
    // one second the run has sent (not spread over 5 s it has not), and the pace set by the first answer stands.
    co.limited('t', { kind: 'limited', waitMs: 1000, reason: '429' }, req('/a'));
    const lowered = co.paceFor('t', req('/a')) as number;
    expect(lowered).toBeCloseTo(320 / 1 / 2);
    for (let i = 0; i < 7; i++) co.limited('t', { kind: 'limited', waitMs: 1000, reason: '429' }, req('/a'));
    expect(co.paceFor('t', req('/a'))).toBe(lowered);
    c.advance(1100);
    expect(co.paceFor('t', req('/a'))).toBe(lowered);
    // A second event: 70 % of it.
    co.limited('t', { kind: 'limited', waitMs: 1000, reason: '429' }, req('/a'));
    expect(co.paceFor('t', req('/a'))).toBeCloseTo(lowered * 0.7);
    // Quiet windows: each adds a tenth of the ceiling, never past it.
    const paces: number[] = [];
    for (let i = 0; i < 40; i++) {
      c.advance(3000);
      co.lease('t', req('/a'), 1, 'w');
      paces.push(co.paceFor('t', req('/a')) as number);
    }
    expect(paces.at(-1)).toBeGreaterThan(lowered * 0.7);
    expect(paces.every((p, i) => i === 0 || p >= (paces[i - 1] as number))).toBe(true);
    expect(Math.max(...paces)).toBeLessThanOrEqual(lowered * 0.9 + 1e-9);
  });

  test('nothing declared: the rate reached is read over the last 5 s, or since the first request if that is sooner', () => {
    const c = clock2();
    // `batches` of `size` requests `everyMs` apart after one request at the start, then limited: the pace set.
    const paceAfter = (batches: number, size: number, everyMs: number) => {
      const co = new RunCoordinator(c.now);
      co.register('t', { maxRequests: 100_000, maxSeconds: 3600 });
      co.sent('t', [[req('/a'), c.now()]]);
      for (let i = 0; i < batches; i++) {
        c.advance(everyMs);
        co.sent(
          't',
          Array.from({ length: size }, () => [req('/a'), c.now()] as const),
        );
      }
      co.limited('t', { kind: 'limited', waitMs: 1000, reason: '429' }, req('/a'));
      return co.paceFor('t', req('/a'));
    };
    // 40 requests a second for 10 s: 40 per second over the last 5 s, half of it.
    expect(paceAfter(10, 40, 1000)).toBeCloseTo(20);
    // 40 requests a second for the run's first 2 s: over those 2 s (over 5 s it would read 16, half of it).
    expect(paceAfter(4, 20, 500)).toBeCloseTo(80 / 2 / 2);
  });

  test('a declared counter limited within its declared pace keeps it — never below what the declared limit allows — waits each answer out, and the report says the limit looks too high', () => {
    const c = clock2();
    const co = new RunCoordinator(c.now);
    co.register('t', policy('address'));
    const declared = co.paceFor('t', users) as number;
    for (let i = 0; i < 20; i++) {
      expect(co.limited('t', { kind: 'limited', waitMs: 100, reason: '429' }, users).resumeAt).toBe(
        c.now() + 200,
      );
      c.advance(200);
    }
    expect(co.paceFor('t', users)).toBe(declared);
    expect(co.politeness().notes?.[0]).toMatch(
      /limited requests of address while they went within its declared pace \(5\.\d+ requests\/s\): jitter on the way, or a declared limit \(or burst\) that is too high/,
    );
  });

  test('a limited answer is no evidence of a lower limit while a key the run does not go by had its counter full: declared per route, two routes of 30 each in a window, limited — the address had 60', () => {
    const c = clock2();
    const told: number[] = [];
    const co = new RunCoordinator(c.now, { onOverDeclared: (_, seen) => told.push(seen.requests) });
    co.register('t', policy('endpoint'));
    const [a, b] = [req('/a'), req('/b')];
    for (let i = 0; i < 30; i++) {
      co.sent('t', [
        [a, c.now()],
        [b, c.now()],
      ]);
      c.advance(100);
    }
    co.limited('t', { kind: 'limited', waitMs: 1000, reason: '429' }, a);
    co.politeness();
    expect(told).toEqual([]);
    expect(co.politeness().overDeclared).toBeUndefined();
  });

  test('a limit with a declared burst: a limited answer after few requests in the window is the burst’s, no evidence of a lower limit', () => {
    const c = clock2();
    const told: number[] = [];
    const co = new RunCoordinator(c.now, { onOverDeclared: (_, seen) => told.push(seen.requests) });
    co.register('t', {
      declared: { limit: 40, windowSeconds: 1, key: 'address', burst: 10 },
      maxRequests: 100_000,
      maxSeconds: 3600,
    });
    // 13 requests within 40 ms, then a limited answer: the burst (10 per 0.25 s) limited them.
    co.sent(
      't',
      Array.from({ length: 13 }, (_, i) => [users, c.now() + 3 * i] as const),
    );
    c.advance(40);
    co.limited('t', { kind: 'limited', waitMs: 250, reason: '429' }, users);
    expect(co.politeness().overDeclared).toBeUndefined();
    expect(told).toEqual([]);
  });

  test('a limited answer within the declared pace after clearly fewer requests than declared says the target keeps a lower limit: read once the workers have reported, from the third such event on the median is reported, told first and when it moves by a tenth; near the limit, for a ban, or just after a pause, it says nothing', () => {
    const c = clock2();
    const told: [number, number][] = [];
    const co = new RunCoordinator(c.now, {
      onOverDeclared: (index, seen) => told.push([index, seen.requests]),
    });
    co.register('t', policy('address'));
    const declared = co.paceFor('t', users);
    const send = (n: number, everyMs: number) => {
      for (let i = 0; i < n; i++) {
        co.sent('t', [[users, c.now()]]);
        c.advance(everyMs);
      }
    };
    const limited = (waitMs: number, kind: 'limited' | 'banned' = 'limited') =>
      co.limited('t', { kind, waitMs, reason: kind === 'limited' ? '429' : '403 with Retry-After' }, users);
    // The next batch of a worker's reports, half a second on: events that old are read.
    const settle = () => {
      c.advance(500);
      co.sent('t', []);
    };
    // A clean window later, `n` requests 100 ms apart, then a limited answer: n − 1 let through.
    const event = (n: number) => {
      c.advance(11_000);
      send(n, 100);
      limited(1000);
      settle();
    };
    // 56 requests in 5.6 s of a declared 60 per 10 s, then a limited answer: near the limit (jitter?), no evidence.
    send(56, 100);
    limited(1000);
    settle();
    expect(told).toEqual([]);
    expect(co.politeness().overDeclared).toBeUndefined();
    // A window later, 30 requests reported, a limited answer, then another worker's batch of 10 sent before it and
    // a second limited answer in flight with the first: read once both are in, 40 sent less 2 limited — the target
    // let 38 through. One event: a leaky bucket may refuse requests that came bunched, nothing said yet.
    c.advance(11_000);
    send(30, 100);
    const at = c.now();
    limited(3000);
    c.advance(5);
    limited(3000);
    c.advance(200);
    co.sent(
      't',
      Array.from({ length: 10 }, (_, i) => [users, at - 50 - 250 * i] as const),
    );
    settle();
    // Waited out to a fixed window's reset (3 s), then 30 more over 7.2 s: the window holds only those — 29 let
    // through. Two events: nothing said yet.
    c.advance(2395);
    send(30, 240);
    limited(1000);
    settle();
    expect(told).toEqual([]);
    expect(co.politeness().overDeclared).toBeUndefined();
    // A ban's 403 after 20 requests in a clean window is no count of the limit; nor, just after the ban's long
    // pause, a limited answer after 3 (the run had offered the target nothing meanwhile).
    c.advance(11_000);
    send(20, 100);
    limited(12_000, 'banned');
    c.advance(12_200);
    send(3, 100);
    limited(1000);
    settle();
    expect(told).toEqual([]);
    // A clean window later, 32 sent, 31 let through: the third event, the median of 29, 31 and 38 is 31 — told.
    event(32);
    expect(told).toEqual([[0, 31]]);
    // Two more of 30 let through: the median (the lower middle) is 30, less than a tenth from the 31 told — reported,
    // not told again. Three of 20: 29, still within a tenth; two more: it falls to 20 — told.
    event(31);
    event(31);
    expect(told).toEqual([[0, 31]]);
    expect(co.politeness().overDeclared).toMatchObject({ 0: { requests: 30, events: 5 } });
    event(21);
    event(21);
    event(21);
    expect(told).toEqual([[0, 31]]);
    expect(co.politeness().overDeclared).toMatchObject({ 0: { requests: 29, events: 8 } });
    event(21);
    event(21);
    const p = co.politeness();
    expect(told).toEqual([
      [0, 31],
      [0, 20],
    ]);
    expect(p.overDeclared).toEqual([
      {
        limit: expect.any(String),
        counter: 'address',
        requests: 20,
        events: 10,
        declared: 60,
        windowSeconds: 10,
      },
    ]);
    expect(p.notes).toContainEqual(
      expect.stringMatching(
        /the target let 20 requests of address through within 10 s before limiting \(the median of 10 limiting events\), where 60 are declared/,
      ),
    );
    // The declared pace stands: each limited answer is waited out.
    expect(co.paceFor('t', users)).toBe(declared);
  });

  test('a limit kept lower, read where another route’s limited answer came before its request was reported: named by the declared address, the coarser counter, never by the request’s route', () => {
    const c = clock2();
    const co = new RunCoordinator(c.now);
    co.register('t', policy('address'));
    const other = req('/other');
    // Three clean windows: 30 requests to /users reported, a limited answer to the last, and with it one to a
    // request to /other whose report is still on its way (a worker's batch). The address log lacks the /other
    // request its limited answer is subtracted for: read alone it says 28 let through, /users' route 29.
    for (let event = 0; event < 3; event++) {
      c.advance(11_000);
      for (let i = 0; i < 30; i++) {
        co.sent('t', [[users, c.now()]]);
        c.advance(100);
      }
      co.limited('t', { kind: 'limited', waitMs: 1000, reason: '429' }, users);
      co.limited('t', { kind: 'limited', waitMs: 1000, reason: '429' }, other);
      c.advance(500);
      co.sent('t', []);
    }
    expect(co.politeness().overDeclared).toEqual([
      expect.objectContaining({ counter: 'address', requests: 29, declared: 60 }),
    ]);
  });

  test('a limit declared with its window alone (no key): a limited answer after few requests is no evidence of a lower limit — a leaky bucket at the declared rate refuses requests that come bunched', () => {
    const c = clock2();
    const { co, told } = keptWatch(c, { limit: 60, windowSeconds: 1 });
    // Five windows, each: 43 requests within 0.3 s, a limited answer, the window waited out.
    for (let i = 0; i < 5; i++)
      limitedWindow(co, c, { scope: users, requests: 43, everyMs: 7, limitedAtMs: 300, waitMs: 1700 });
    expect(co.politeness().overDeclared).toBeUndefined();
    expect(told).toEqual([]);
  });

  test('a limit declared without its key, whose limited answers state a lower limit (@fastify/rate-limit’s X-RateLimit-Limit): evidence where the count agrees with the statement — not where it does not, nor where the statement is the declared limit', () => {
    const run = (requests: number, stated: number | undefined) => {
      const c = clock2();
      const { co, told } = keptWatch(c, { limit: 60, windowSeconds: 10 });
      // Windows of 10 s: `requests` within 4 s, a limited answer, the window's rest waited out. The first two
      // events teach the key (`endpoint` and `identity`, then `address`): they read nothing.
      for (let i = 0; i < 5; i++)
        limitedWindow(co, c, {
          scope: users,
          requests,
          everyMs: 100,
          limitedAtMs: 4000,
          waitMs: 6000,
          stated,
        });
      return { told, overDeclared: co.politeness().overDeclared };
    };
    // The target let 40 through each window and says its limit is 40: from the third event, 39 (sent less limited).
    const agreeing = run(40, 40);
    expect(agreeing.told).toEqual([39]);
    expect(agreeing.overDeclared).toEqual([
      expect.objectContaining({ requests: 39, declared: 60, stated: 40 }),
    ]);
    // A statement of 40 where the count read 31 (requests bunched before a bucket’s count): the witnesses disagree.
    expect(run(32, 40).told).toEqual([]);
    // No statement, or one of the declared limit: a limit and a window alone, no evidence (the test above).
    expect(run(40, undefined).told).toEqual([]);
    expect(run(40, 60).told).toEqual([]);
  });

  test('just after a pause to a fixed window’s reset, the window-log pace sends the target’s whole window at once: a reading from half the declared limit up is evidence, one under it is the pause’s tail', () => {
    const c = clock2();
    const told: number[] = [];
    const co = new RunCoordinator(c.now, { onOverDeclared: (_, seen) => told.push(seen.requests) });
    co.register('t', policy('address'));
    // `n` requests 10 ms apart, then a limited answer asking to wait to the window's reset 10 s after the first.
    const window = (n: number) =>
      limitedWindow(co, c, {
        scope: users,
        requests: n,
        everyMs: 10,
        limitedAtMs: 10 * n,
        waitMs: 10_000 - 10 * n,
      });
    // The first window: no pause before it. The next ones come 0.4 s after a pause, each reading 39 of 60.
    window(40);
    window(40);
    expect(told).toEqual([]);
    window(40);
    expect(told).toEqual([39]);
    // 0.2 s after a pause, 20 let through: under half the declared 60, as a ban's remainder would be — no evidence.
    const again = new RunCoordinator(c.now, { onOverDeclared: (_, seen) => told.push(seen.requests) });
    again.register('t', policy('address'));
    for (let i = 0; i < 4; i++)
      limitedWindow(again, c, { scope: users, requests: 20, everyMs: 10, limitedAtMs: 200, waitMs: 9800 });
    expect(again.politeness().overDeclared).toBeUndefined();
    expect(told).toEqual([39]);
  });
});

/**
 * One window of `requests` of `scope`, `everyMs` apart, a limited answer `limitedAtMs` after the first asking to wait
 * `waitMs`, the wait, then the next batch of a worker's reports (the event is read: settleKept).
 */
function limitedWindow(
  co: RunCoordinator,
  c: ReturnType<typeof clock2>,
  w: {
    scope: ReturnType<typeof req>;
    requests: number;
    everyMs: number;
    limitedAtMs: number;
    waitMs: number;
    /** The limit the limited answer states (X-RateLimit-Limit); absent: none. */
    stated?: number;
  },
): void {
  const start = c.now();
  co.sent(
    't',
    Array.from({ length: w.requests }, (_, i) => [w.scope, start + w.everyMs * i] as const),
  );
  c.advance(w.limitedAtMs);
  co.limited('t', { kind: 'limited', waitMs: w.waitMs, reason: '429' }, w.scope, undefined, w.stated);
  c.advance(w.waitMs);
  co.sent('t', []);
}

/** A coordinator under one limit declared without its key, and the kept-lower readings it tells. */
function keptWatch(
  c: ReturnType<typeof clock2>,
  declared: { limit: number; windowSeconds: number },
): { co: RunCoordinator; told: number[] } {
  const told: number[] = [];
  const co = new RunCoordinator(c.now, { onOverDeclared: (_, seen) => told.push(seen.requests) });
  co.register('t', { declared, maxRequests: 100_000, maxSeconds: 3600 });
  return { co, told };
}

function clock2() {
  let now = NOW;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

test.describe('fuzz shares', () => {
  test('each fuzz rule may use an equal share of the time left, so the last rules keep theirs', () => {
    const c = { now: NOW };
    const co = new RunCoordinator(() => c.now);
    co.register('t', { maxRequests: 1000, maxSeconds: 100 });
    // Four rules, one worker: the first gets a quarter of 100 s.
    expect(co.fuzzShare('t', 4, 1)).toBe(NOW + 25_000);
    // It used all of it; the second gets a third of the 75 s left, and so on: the last still gets 25 s.
    c.now += 25_000;
    expect(co.fuzzShare('t', 4, 1)).toBe(NOW + 50_000);
    c.now += 25_000;
    expect(co.fuzzShare('t', 4, 1)).toBe(NOW + 75_000);
    c.now += 25_000;
    expect(co.fuzzShare('t', 4, 1)).toBe(NOW + 100_000);
    // Two workers run two rules at once: each share doubles (never past the deadline).
    const co2 = new RunCoordinator(() => NOW);
    co2.register('t', { maxRequests: 1000, maxSeconds: 100 });
    expect(co2.fuzzShare('t', 4, 2)).toBe(NOW + 50_000);
  });
});

test.describe('buckets', () => {
  const profile = {
    name: 'p',
    endpoints: { protected: { path: '/x' } },
    identities: {
      admin: { bearer: 'tok.en.a', basic: { username: 'alice', password: 'pw:1' }, apikey: 'k1' },
      user: { apikey: 'k2' },
    },
  } as unknown as Profile;
  const scopeOf = (of: ReturnType<typeof bucketer>, path: string, auth: string[]) =>
    decodeScope(of(path, auth));

  test('the declared identity of an exact credential (any scheme case, 1*SP); anything else is ""', () => {
    const of = bucketer({ ...profile, rateLimit: { limit: 1, windowSeconds: 1, key: 'identity' } });
    expect(scopeOf(of, '/x', ['Bearer tok.en.a']).identity).toBe('admin');
    expect(scopeOf(of, '/x', ['bEaReR   tok.en.a']).identity).toBe('admin');
    // One credential, however its scheme is spelled: one counter per credential.
    expect(scopeOf(of, '/x', ['bEaReR   tok.en.a']).credential).toBe(
      scopeOf(of, '/x', ['Bearer tok.en.a']).credential,
    );
    expect(scopeOf(of, '/x', [`Basic ${Buffer.from('alice:pw:1').toString('base64')}`]).identity).toBe(
      'admin',
    );
    expect(scopeOf(of, '/x', ['Apikey k2']).identity).toBe('user');
    // A wrong password is not verified as alice: no declared identity, a credential (a counter) of its own.
    const wrong = scopeOf(of, '/x', [`Basic ${Buffer.from('alice:wrong').toString('base64')}`]);
    expect(wrong.identity).toBe('');
    expect(wrong.credential).not.toBe('');
    expect(wrong.credential).not.toBe(scopeOf(of, '/x', ['Bearer tok.en.a']).credential);
    expect(counterOf('identity', wrong)).toBe(`identity ~${wrong.credential}`);
    expect(scopeOf(of, '/x', [])).toMatchObject({ identity: '', credential: '' });
    expect(scopeOf(of, '/x', ['Bearer tok.en.b']).identity).toBe('');
    // Two Authorization lines: no identity (a target refuses the request), but a credential, not one of the
    // requests without any — the first line's, as Node's parser keeps it.
    const twice = scopeOf(of, '/x', ['Bearer tok.en.a', 'Bearer tok.en.b']);
    expect(twice.identity).toBe('');
    expect(twice.credential).toBe(scopeOf(of, '/x', ['Bearer tok.en.a']).credential);
    // The digest never carries the credential.
    expect(of('/x', ['Bearer tok.en.a'])).not.toContain('tok.en.a');
  });

  test('an Authorization field of spaces and tabs only is an empty value (RFC 9110 §5.5): counted with the requests that carry none', () => {
    // A target's parser strips the field value's leading and trailing whitespace: Node hands the limiter ''
    // and @fastify/rate-limit's `req.headers.authorization || req.ip` counts the address, as the mock does.
    // Counted apart (a credential of its own), these requests and the ones without a field went each at the
    // declared pace into the target's one counter: limited answers (#38, the per-credential bench rows).
    for (const key of ['credential', 'identity'] as const) {
      const of = bucketer({ ...profile, rateLimit: { limit: 1, windowSeconds: 1, key } });
      const none = scopeOf(of, '/x', []);
      for (const blank of [' ', ' \t ', '\t\t', '']) {
        const scope = scopeOf(of, '/x', [blank]);
        expect(scope).toMatchObject({ identity: '', credential: '' });
        expect(counterOf(key, scope)).toBe(counterOf(key, none));
      }
      // The whitespace around a value is no part of it either: one credential, one counter.
      expect(scopeOf(of, '/x', ['  Bearer tok.en.a \t']).credential).toBe(
        scopeOf(of, '/x', ['Bearer tok.en.a']).credential,
      );
    }
  });

  test("per identity, a key in the target's own form (apikeyScheme): its word, a parameter, or the key alone", () => {
    const limit = { limit: 1, windowSeconds: 1, key: 'identity' } as const;
    const token = bucketer({ ...profile, apikeyScheme: 'Token', rateLimit: limit });
    expect(scopeOf(token, '/x', ['tOkEn k2']).identity).toBe('user');
    expect(scopeOf(token, '/x', ['Apikey k2']).identity).toBe('');
    const param = bucketer({ ...profile, apikeyScheme: 'MediaBrowser Token', rateLimit: limit });
    expect(scopeOf(param, '/x', ['MediaBrowser Token="k1"']).identity).toBe('admin');
    expect(scopeOf(param, '/x', ['MediaBrowser k1']).identity).toBe('');
    const bare = bucketer({ ...profile, apikeyScheme: '', rateLimit: limit });
    expect(scopeOf(bare, '/x', ['k2']).identity).toBe('user');
    expect(scopeOf(bare, '/x', ['Bearer tok.en.a']).identity).toBe('admin');
  });

  test("a credential's spellings share its digest as parsed and each keeps its digest as sent; the identity keys read the parsed one", () => {
    const of = bucketer({ ...profile, rateLimit: { limit: 1, windowSeconds: 1, key: 'credential' } });
    const spellings = ['Bearer tok.en.x', 'bearer tok.en.x', 'BEARER  tok.en.x', ' Bearer tok.en.x\t'];
    const scopes = spellings.map((auth) => scopeOf(of, '/protected', [auth]));
    const [first, ...others] = scopes;
    for (const other of others) expect(other.credential).toBe(first?.credential);
    // As sent: the scheme's case and the spaces after it make another spelling; the field's surrounding
    // whitespace does not (RFC 9110 §5.5).
    expect(new Set(scopes.map((s) => s.spelling)).size).toBe(3);
    expect(scopes[3]?.spelling).toBe(first?.spelling);
    for (const scope of scopes) {
      expect(decodeScope(encodeScope(scope))).toEqual(scope);
      expect(counterOf('identity', scope)).toBe(counterOf('identity', parsed(scope)));
    }
    // Per identity no counter reads the spelling: none is computed.
    const perIdentity = bucketer({ ...profile, rateLimit: { limit: 1, windowSeconds: 1, key: 'identity' } });
    expect(scopeOf(perIdentity, '/protected', ['bearer tok.en.x']).spelling).toBeUndefined();
  });

  test('a limit of one endpoint (appliesTo endpoint): only its requests are counted', () => {
    const only = { path: '/limited' };
    const of = bucketer({
      ...profile,
      rateLimit: { limit: 1, windowSeconds: 1, key: 'identity', appliesTo: 'endpoint', endpoint: only },
    });
    expect(scopeOf(of, '/limited', ['Bearer tok.en.a'])).toMatchObject({ counted: true, identity: 'admin' });
    expect(scopeOf(of, '/limited?x=1', []).counted).toBe(true);
    expect(scopeOf(of, '/x', ['Bearer tok.en.a']).counted).toBe(false);
  });

  test('a limit of one endpoint under a base path counts that path under it; without rateLimit.endpoint, the protected one', () => {
    const withBase = bucketer(
      {
        ...profile,
        rateLimit: {
          limit: 1,
          windowSeconds: 1,
          key: 'address',
          appliesTo: 'endpoint',
          endpoint: { path: '/limited' },
        },
      },
      'http://127.0.0.1:1/api/',
    );
    expect([
      scopeOf(withBase, '/api/limited', []).counted,
      scopeOf(withBase, '/limited', []).counted,
    ]).toEqual([true, false]);
    const byDefault = bucketer({
      ...profile,
      endpoints: { protected: { path: '/protected' } },
      rateLimit: { limit: 1, windowSeconds: 1, key: 'address', appliesTo: 'endpoint' },
    } as Profile);
    expect([scopeOf(byDefault, '/protected', []).counted, scopeOf(byDefault, '/users', []).counted]).toEqual([
      true,
      false,
    ]);
  });

  test('the route is the path without its query; every key reads its counter from the one scope', () => {
    // Key not declared: the scheduler may count per identity or credential, so the scope carries the digest.
    const of = bucketer({
      ...profile,
      endpoints: { protected: { path: '/a' } },
      rateLimit: { limit: 1, windowSeconds: 1 },
    });
    // Nothing declared: one counter for the run, no digest computed per request.
    expect(scopeOf(bucketer(profile), '/a', ['Apikey k1']).credential).toBe('');
    const scope = scopeOf(of, '/a?x=1', ['Apikey k1']);
    expect(scope).toMatchObject({ counted: true, route: '/a', identity: 'admin' });
    expect(counterOf('address', scope)).toBe('address');
    expect(counterOf('endpoint', scope)).toBe('endpoint /a');
    expect(counterOf('identity', scope)).toBe('identity admin');
    // As parsed (the coordinator's reading of a credential's first spelling); as sent, its spelling's digest too.
    expect(counterOf('credential', parsed(scope))).toMatch(/^credential \S{16}$/);
    expect(counterOf('credential', scope)).toMatch(/^credential \S{16}~\S{16}$/);
  });

  test('on the public route a credential that verifies as no identity counts per identity as anonymous requests do; elsewhere, and per credential, on its own', () => {
    const of = bucketer({
      ...profile,
      endpoints: { public: { path: '/users' }, protected: { path: '/protected', schemes: ['bearer'] } },
      rateLimit: { limit: 1, windowSeconds: 1, key: 'identity' },
    });
    const forged = scopeOf(of, '/users?page=2', ['Bearer forged']);
    expect(forged.publicRoute).toBe(true);
    // A target per identity serves it as anonymous there, and counts it so (DRF's get_ident, the mock).
    expect(counterOf('identity', forged)).toBe(counterOf('identity', scopeOf(of, '/users', [])));
    // A declared identity's request on the public route is still its own.
    expect(counterOf('identity', scopeOf(of, '/users', ['Apikey k1']))).toBe('identity admin');
    // Under `credential`, the value is its own counter wherever it goes.
    expect(counterOf('credential', parsed(forged))).toMatch(/^credential \S{16}$/);
    // On a protected route it is refused, not served: an identity of its own, as before.
    expect(counterOf('identity', scopeOf(of, '/protected', ['Bearer forged']))).toMatch(/^identity ~\S{16}$/);
    // The mark travels with the scope.
    expect(decodeScope(encodeScope(forged))).toEqual(forged);
  });

  test('a request to no declared route or method — an unknown path or spelling, a method its path does not take, OPTIONS — is marked unrouted, and counts apart under every key', () => {
    const of = bucketer(
      {
        ...profile,
        endpoints: {
          public: { path: '/users' },
          protected: { path: '/protected', schemes: ['bearer'] },
          admin: { path: '/admin', schemes: ['bearer'] },
          missing: { path: '/does-not-exist' },
          collection: { path: '/users', writeSchemes: ['bearer'] },
          methodNotAllowed: { path: '/protected', method: 'DELETE' },
        },
        rateLimit: { limit: 1, windowSeconds: 1 },
      },
      'http://127.0.0.1:1/api',
    );
    const unrouted = (method: string, path: string) => of(path, [], method).split('\t')[4] === 'u';
    // Declared routes and methods: GET (and HEAD with it), the collection's writes and its items (/users/{id}).
    for (const [method, path] of [
      ['GET', '/api/users?page=2'],
      ['HEAD', '/api/protected'],
      ['POST', '/api/users'],
      ['get', '/api/admin'],
      ['PUT', '/api/users/42'],
      ['DELETE', '/api/users/42'],
    ] as const)
      expect(unrouted(method, path), `${method} ${path}`).toBe(false);
    // Answered before many limiters: 404, 405, a preflight; a path outside the base URL's.
    for (const [method, path] of [
      ['GET', '/api/does-not-exist'],
      ['GET', '/api/ADMIN'],
      ['GET', '/api/admin/'],
      ['GET', '/api//admin'],
      ['GET', '/api/%61dmin'],
      // As spelled on the wire (specs/lib/request-target.ts wireTarget): a dot segment, a fragment.
      ['GET', '/api/./admin'],
      ['GET', '/api/admin#gatecheck'],
      ['DELETE', '/api/protected'],
      ['PATCH', '/api/admin'],
      ['OPTIONS', '/api/protected'],
      ['GET', '/elsewhere'],
    ] as const)
      expect(unrouted(method, path), `${method} ${path}`).toBe(true);
    const scope = decodeScope(of('/api/ADMIN', ['Bearer tok.en.a']));
    expect(scope.unrouted).toBe(true);
    expect(decodeScope(encodeScope(scope))).toEqual(scope);
    for (const key of ['address', 'endpoint', 'identity', 'credential'] as const)
      expect(counterOf(key, scope)).toBe(`unrouted ${counterOf(key, { ...scope, unrouted: false })}`);
    // OPTIONS is routed where the profile's `methods` lists it for the path.
    const listed = bucketer({
      ...profile,
      endpoints: { protected: { path: '/protected', schemes: ['bearer'] } },
      methods: { '/protected': ['GET', 'OPTIONS'] },
      rateLimit: { limit: 1, windowSeconds: 1 },
    });
    expect(decodeScope(listed('/protected', [], 'OPTIONS')).unrouted).toBeUndefined();
    expect(decodeScope(listed('/protected', [], 'DELETE')).unrouted).toBe(true);
    // Both marks travel together.
    const both = decodeScope(of('/api/users', ['Bearer forged'], 'OPTIONS'));
    expect(both).toMatchObject({ publicRoute: true, unrouted: true });
    expect(decodeScope(encodeScope(both))).toEqual(both);
    // The worker's quick reading of the mark agrees with the decoder's, with and without the other mark.
    for (const [method, path, auth] of [
      ['OPTIONS', '/api/users', ['Bearer forged']],
      ['GET', '/api/users', ['Bearer forged']],
      ['GET', '/api/ADMIN', []],
      ['GET', '/api/users', []],
    ] as const) {
      const text = of(path, [...auth], method);
      expect(isUnroutedScope(text), `${method} ${path}`).toBe(decodeScope(text).unrouted === true);
    }
  });
});

test.describe('buckets: tokens the suite mints', () => {
  const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = keys.privateKey.export({ format: 'jwk' });
  const profile = {
    name: 'p',
    endpoints: {},
    identities: {
      admin: { bearer: 'tok.en.a', jwtClaims: { sub: 'alice' } },
      user: { apikey: 'k2', jwtClaims: { sub: 'bob' } },
    },
    jwt: { alg: 'ES256', privateJwk: jwk, issuer: 'https://issuer.test/', audience: 'api' },
    rateLimit: { limit: 1, windowSeconds: 1, key: 'identity' },
  } as unknown as Profile;
  const mint = (claims: Record<string, unknown>, alg = 'ES256') =>
    new SignJWT({
      iss: 'https://issuer.test/',
      aud: 'api',
      exp: Math.floor(Date.now() / 1000) + 3600,
      ...claims,
    })
      .setProtectedHeader({ alg })
      .setIssuedAt()
      .sign(keys.privateKey);

  test('a token signed with the profile’s key for a declared identity’s sub counts as that identity', async () => {
    const of = (path: string, auth: string[]) => decodeScope(bucketer(profile)(path, auth)).identity;
    expect(of('/x', [`Bearer ${await mint({ sub: 'bob', roles: ['admin'] })}`])).toBe('user');
    expect(of('/x', [`bearer  ${await mint({ sub: 'alice' })}`])).toBe('admin');
  });

  test('one the target would not verify (forged, unsigned, expired, wrong issuer or audience, unknown sub) is ""', async () => {
    const of = (path: string, auth: string[]) => decodeScope(bucketer(profile)(path, auth)).identity;
    const good = await mint({ sub: 'bob' });
    const [h, p, s] = good.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'bob', iss: 'https://issuer.test/', aud: 'api' })).toString('base64url')}.${s}`;
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`;
    expect(of('/x', [`Bearer ${forged}`])).toBe('');
    expect(of('/x', [`Bearer ${unsigned}`])).toBe('');
    expect(of('/x', [`Bearer ${await mint({ sub: 'bob', exp: 1_000 })}`])).toBe('');
    expect(of('/x', [`Bearer ${await mint({ sub: 'bob', iss: 'https://other.test/' })}`])).toBe('');
    expect(of('/x', [`Bearer ${await mint({ sub: 'bob', aud: 'other' })}`])).toBe('');
    expect(of('/x', [`Bearer ${await mint({ sub: 'mallory' })}`])).toBe('');
  });
});
