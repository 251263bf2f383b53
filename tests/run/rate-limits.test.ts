/**
 * Rate limits as services declare them (#38): one resolved rate policy (specs/profile/rate-policy.ts), counters
 * exactly as fine as the key, several limits in one profile, counters per route template. The coordinator is
 * driven on a hand-moved clock against stand-ins that count as the target would, and a run's wall time is
 * compared with the least its limits allow.
 */
import { expect, test } from '@playwright/test';
import { ratePolicyOf } from '../../specs/profile/rate-policy.ts';
import type { Profile } from '../../specs/profile/types.ts';
import { bucketer } from '../../specs/run/buckets.ts';
import { RunCoordinator } from '../../specs/run/coordinator.ts';
import { policyOf } from '../../specs/run/scheduler.ts';
import { decodeScope } from '../../specs/run/scopes.ts';

const NOW = Date.parse('2026-11-27T09:00:00Z');

const PROFILE = {
  name: 'p',
  endpoints: {
    public: { path: '/public' },
    protected: { path: '/protected', schemes: ['bearer'] },
    admin: { path: '/admin', schemes: ['bearer'] },
  },
  identities: {
    admin: { bearer: 'tok.admin' },
    user: { bearer: 'tok.user' },
    ratelimit: { bearer: 'tok.rl' },
  },
} as unknown as Profile;

const withLimit = (rateLimit: unknown): Profile => ({ ...PROFILE, rateLimit }) as unknown as Profile;

/**
 * Streams of requests (each a list of Authorization values and a path), each stream sending its next request
 * when its last is answered — as a worker's clients do — through the coordinator, to a stand-in that says
 * whether each request is limited. Returns when the last stream is done, and how many answers were limited.
 */
function runStreams(
  profile: Profile,
  streams: readonly (readonly { path: string; auth: string[] }[])[],
  limits: (r: { path: string; auth: string[] }, at: number) => boolean,
): { endMs: number; limited: number; co: RunCoordinator } {
  let now = NOW;
  const co = new RunCoordinator(() => now);
  co.register('t', policyOf(profile));
  const of = bucketer(profile);
  let limited = 0;
  type Event = { t: number; stream: number; i: number; send: boolean };
  const queue: Event[] = streams.map((_, stream) => ({ t: NOW, stream, i: 0, send: false }));
  let end = NOW;
  for (let steps = 0; steps < 1_000_000; steps++) {
    queue.sort((a, b) => a.t - b.t);
    const e = queue.shift();
    if (e === undefined) break;
    now = Math.max(now, e.t);
    const r = streams[e.stream]?.[e.i];
    if (r === undefined) {
      end = Math.max(end, now);
      continue;
    }
    const scope = of(r.path, r.auth);
    if (!e.send) {
      const answer = co.lease('t', scope, 1, `w${e.stream}`);
      if ('exhausted' in answer) throw new Error(answer.exhausted);
      queue.push(
        'retryAt' in answer ? { ...e, t: answer.retryAt } : { ...e, t: answer.at[0] ?? now, send: true },
      );
      continue;
    }
    co.sent('t', [[scope, now]]);
    if (limits(r, now)) {
      limited++;
      co.limited('t', { kind: 'limited', waitMs: undefined, reason: '429' }, scope);
      queue.push({ ...e, t: now + 1, send: false });
    } else queue.push({ ...e, t: now + 1, i: e.i + 1, send: false });
  }
  return { endMs: end - NOW, limited, co };
}

/** A sliding-window stand-in: `limit` per `windowMs` per counter, `counter` naming it (undefined: not counted). */
function sliding(
  limit: number,
  windowMs: number,
  counter: (r: { path: string; auth: string[] }) => string | undefined,
) {
  const seen = new Map<string, number[]>();
  return (r: { path: string; auth: string[] }, at: number): boolean => {
    const id = counter(r);
    if (id === undefined) return false;
    const times = (seen.get(id) ?? []).filter((t) => t > at - windowMs);
    if (times.length >= limit) return true;
    times.push(at);
    seen.set(id, times);
    return false;
  };
}

const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

test.describe('one resolved rate policy', () => {
  test('a single rateLimit: its defaults applied once — the burst’s identity and endpoint, the ban, the key', () => {
    const p = ratePolicyOf(withLimit({ limit: 20, windowSeconds: 10, banAfter: 3, status: 503 }));
    expect(p.entries).toHaveLength(1);
    expect(p.entries[0]).toMatchObject({ limit: 20, windowSeconds: 10, appliesTo: 'all' });
    expect(p.entries[0]?.key).toBeUndefined();
    expect(p.burst).toMatchObject({ identity: 'ratelimit', endpoint: { path: '/protected' }, banAfter: 3 });
    expect(p.ban).toEqual({ after: 3 });
    expect(p.limiterStatus).toBe(503);
    expect(ratePolicyOf(PROFILE)).toEqual({
      entries: [],
      templates: [],
      controls: { anonymous: '/public', identity: '/protected' },
    });
  });

  test('a list: each entry its own, the burst meets the smallest limit that applies to its endpoint, and names it', () => {
    const p = ratePolicyOf(
      withLimit([
        { name: 'global', limit: 100, windowSeconds: 60, key: 'address' },
        { name: 'login', limit: 5, windowSeconds: 60, key: 'address', routes: ['/login'] },
        { name: 'short', limit: 3, windowSeconds: 1, key: 'address' },
      ]),
    );
    expect(p.entries.map((e) => e.label)).toEqual([
      'global (100 per 60 s per address)',
      'login (5 per 60 s per address)',
      'short (3 per 1 s per address)',
    ]);
    // /protected: global and short apply (login counts /login only); short is met first.
    expect(p.burst?.entry.label).toBe('short (3 per 1 s per address)');
    // Each says what it counts: going past the smallest that applies, with no limited answer, is a failure.
    expect(p.burst?.conclusiveBeyond.map((e) => e.label)).toEqual(['short (3 per 1 s per address)']);
  });

  test('a list that says of no limit what it counts: the burst says nothing until it has gone past every limit', () => {
    // DRF's rates written with limit and window only: its anonymous 20 never counts the authenticated burst.
    const minimal = ratePolicyOf(
      withLimit([
        { limit: 20, windowSeconds: 10 },
        { limit: 60, windowSeconds: 10 },
      ]),
    );
    expect(minimal.burst?.entry.limit).toBe(20);
    expect(minimal.burst?.conclusiveBeyond.map((e) => e.limit)).toEqual([20, 60]);
    // Said (DRF exact): anon does not apply to the authenticated burst, user does and is the one to go past.
    const exact = ratePolicyOf(
      withLimit([
        { name: 'anon', limit: 20, windowSeconds: 10, key: 'address', appliesTo: 'anonymous' },
        { name: 'user', limit: 60, windowSeconds: 10, key: 'identity' },
      ]),
    );
    expect(exact.burst?.conclusiveBeyond.map((e) => e.label)).toEqual(['user (60 per 10 s per identity)']);
    // One limit, said or not: that one.
    expect(ratePolicyOf(withLimit({ limit: 20, windowSeconds: 10 })).burst?.conclusiveBeyond).toHaveLength(1);
  });
});

test.describe('counters exactly as fine as the key', () => {
  test('a stand-in limiting per Authorization value at 20/10 s: the default run’s shape finishes within 1.3× its minimum, none limited', () => {
    const profile = withLimit({ limit: 20, windowSeconds: 10, key: 'credential' });
    // The busiest counter: admin's 100 requests (minimum 50 s at 2/s); 60 without a credential (per address);
    // 800 fuzz cases, each with a credential of its own, 8 in flight.
    const streams = [
      times(100, () => ({ path: '/protected', auth: ['Bearer tok.admin'] })),
      times(60, () => ({ path: '/public', auth: [] })),
      ...times(8, (w) => times(100, (i) => ({ path: '/protected', auth: [`Bearer fuzz-${w}-${i}`] }))),
    ];
    const standIn = sliding(20, 10_000, (r) => r.auth[0] ?? 'address');
    const { endMs, limited } = runStreams(profile, streams, standIn);
    const minimumMs = (100 / 2) * 1000;
    expect(limited).toBe(0);
    expect(endMs / minimumMs).toBeLessThanOrEqual(1.3);
  });

  test('the key declared and no burst, the target takes its whole limit at once: a check’s few requests with one credential never wait, a busy credential goes a window at a time', () => {
    const profile = withLimit({ limit: 20, windowSeconds: 10, key: 'credential' });
    const standIn = () => sliding(20, 10_000, (r) => r.auth[0] ?? 'address');
    // 19 requests with one credential (a check's): none waits (the stream's 1 ms per answer only).
    const few = runStreams(
      profile,
      [times(19, () => ({ path: '/admin', auth: ['Bearer tok.admin'] }))],
      standIn(),
    );
    expect(few.limited).toBe(0);
    expect(few.endMs).toBeLessThan(100);
    // 59 with one credential: 19 + 19 + 19 + 2, a window (and its slack) apart — not one every 1/1.8 s (32 s).
    const many = runStreams(
      profile,
      [times(59, () => ({ path: '/admin', auth: ['Bearer tok.user'] }))],
      standIn(),
    );
    expect(many.limited).toBe(0);
    expect(many.endMs).toBeLessThan(3 * 10_250 + 100);
    // 181 without a credential (per address): within 1.1× of the 90.5 s the limit allows.
    const anon = runStreams(profile, [times(181, () => ({ path: '/public', auth: [] }))], standIn());
    expect(anon.limited).toBe(0);
    expect(anon.endMs / 90_500).toBeLessThanOrEqual(1.1);
  });

  test('a limited answer slows the counter it belongs to, not a pool of every unknown credential', () => {
    const profile = withLimit({ limit: 20, windowSeconds: 10, key: 'credential' });
    // One unknown credential sent 40 times (a fuzz plan's respellings of one value) beside 400 others.
    const streams = [
      times(40, () => ({ path: '/protected', auth: ['Bearer same'] })),
      ...times(8, (w) => times(50, (i) => ({ path: '/protected', auth: [`Bearer fuzz-${w}-${i}`] }))),
    ];
    // A stand-in that does not know the declared limit's pace: it limits at 10 per 10 s.
    const { endMs, co } = runStreams(
      profile,
      streams,
      sliding(10, 10_000, (r) => r.auth[0]),
    );
    const p = co.politeness();
    const busy = p.counters?.filter((c) => c.requests > 1) ?? [];
    // Only `Bearer same`'s counter met a limit; the 400 others went at once.
    expect(busy.filter((c) => c.limited > 0)).toHaveLength(1);
    expect(endMs).toBeLessThan(60_000);
  });
});

test.describe('several limits', () => {
  test('NestJS-like, 3 per second and 100 per minute on one key: paced by both, none limited, within 1.3× the minimum', () => {
    const profile = withLimit([
      { name: 'short', limit: 3, windowSeconds: 1, key: 'address' },
      { name: 'long', limit: 100, windowSeconds: 60, key: 'address' },
    ]);
    const streams = times(4, (w) =>
      times(75, (i) => ({ path: `/r${w}`, auth: i % 2 ? ['Bearer tok.user'] : [] })),
    );
    const short = sliding(3, 1000, () => 'a');
    const long = sliding(100, 60_000, () => 'a');
    const { endMs, limited, co } = runStreams(profile, streams, (r, at) => short(r, at) || long(r, at));
    expect(limited).toBe(0);
    // 300 requests at 100 per minute: 180 s (requests ÷ the limit's rate, as the bench reckons it).
    const minimumMs = (300 / 100) * 60_000;
    expect(endMs / minimumMs).toBeLessThanOrEqual(1.3);
    expect(co.politeness().key?.summary).toMatch(
      /^short \(3 per 1 s per address\): .*; long \(100 per 60 s per address\): /,
    );
  });

  test('DRF-like: anonymous per address and authenticated per user, each paced by its own limit only', () => {
    const profile = withLimit([
      { name: 'anon', limit: 10, windowSeconds: 10, key: 'address', appliesTo: 'anonymous' },
      { name: 'user', limit: 30, windowSeconds: 10, key: 'identity', appliesTo: 'authenticated' },
    ]);
    const of = bucketer(profile);
    expect(decodeScope(of('/public', [])).entries).toEqual([0]);
    expect(decodeScope(of('/protected', ['Bearer tok.user'])).entries).toEqual([1]);
    const streams = [
      times(30, () => ({ path: '/public', auth: [] })),
      times(90, () => ({ path: '/protected', auth: ['Bearer tok.user'] })),
      times(90, () => ({ path: '/admin', auth: ['Bearer tok.admin'] })),
    ];
    const anon = sliding(10, 10_000, (r) => (r.auth.length === 0 ? 'address' : undefined));
    const user = sliding(30, 10_000, (r) => r.auth[0]);
    const { endMs, limited } = runStreams(profile, streams, (r, at) => anon(r, at) || user(r, at));
    expect(limited).toBe(0);
    // Each counter's minimum is 30 s (30 at 1/s; 90 at 3/s): the users are not held to the anonymous limit.
    expect(endMs / 30_000).toBeLessThanOrEqual(1.3);
  });

  test('DRF as it counts: the user limit keys what it serves as anonymous by address — forged credentials on the public route among them — none limited, within 1.3× the minimum', () => {
    // DRF's UserRateThrottle: the user when authenticated, else the address (its API guide); the mock's
    // per-identity groups alike. Every request counts against `user`; only those without a credential against `anon`.
    const profile = withLimit([
      { name: 'anon', limit: 10, windowSeconds: 10, key: 'address', appliesTo: 'anonymous' },
      { name: 'user', limit: 30, windowSeconds: 10, key: 'identity' },
    ]);
    const streams = [
      times(30, () => ({ path: '/public', auth: [] })),
      // The fuzz phase's forged credentials on the public route, each one a value of its own.
      times(60, (i) => ({ path: '/public', auth: [`Bearer forged.${i}`] })),
      times(90, () => ({ path: '/protected', auth: ['Bearer tok.user'] })),
    ];
    const verified = new Set(['Bearer tok.user', 'Bearer tok.admin']);
    const anon = sliding(10, 10_000, (r) => (r.auth.length === 0 ? 'address' : undefined));
    const user = sliding(30, 10_000, (r) =>
      r.auth[0] !== undefined && verified.has(r.auth[0]) ? r.auth[0] : 'address',
    );
    const { endMs, limited } = runStreams(profile, streams, (r, at) => anon(r, at) || user(r, at));
    expect(limited).toBe(0);
    // The least: the user limit's address counter takes 30 + 60 requests at 3/s (30 s), as anon's 30 at 1/s.
    expect(endMs / 30_000).toBeLessThanOrEqual(1.3);
  });

  test('a strict login route beside a global limit: the login route paced by both, the others by the global one', () => {
    const profile = withLimit([
      { name: 'global', limit: 60, windowSeconds: 10, key: 'address' },
      { name: 'login', limit: 10, windowSeconds: 10, key: 'address', routes: ['/login'] },
    ]);
    const streams = [
      times(20, () => ({ path: '/login', auth: [] })),
      times(200, () => ({ path: '/public', auth: [] })),
    ];
    const global = sliding(60, 10_000, () => 'a');
    const login = sliding(10, 10_000, (r) => (r.path === '/login' ? 'a' : undefined));
    const { endMs, limited } = runStreams(profile, streams, (r, at) => global(r, at) || login(r, at));
    expect(limited).toBe(0);
    // 220 at 6/s: ≈ 37 s, the global limit's minimum; the 20 logins at 1/s: 20 s within it.
    expect(endMs / ((220 / 6) * 1000)).toBeLessThanOrEqual(1.3);
  });
});

test.describe('counters per route template', () => {
  test('a path matching a template the profile names counts under the template; others under their path', () => {
    const profile = {
      ...withLimit({ limit: 10, windowSeconds: 1, key: 'endpoint' }),
      methods: { '/users/{id}': ['GET'] },
    } as unknown as Profile;
    const of = bucketer(profile, 'http://127.0.0.1:1/api');
    expect(decodeScope(of('/api/users/a', [])).route).toBe('/api/users/{id}');
    expect(decodeScope(of('/api/users/b?x=1', [])).route).toBe('/api/users/{id}');
    expect(decodeScope(of('/api/users/a/b', [])).route).toBe('/api/users/a/b');
    expect(decodeScope(of('/api/other', [])).route).toBe('/api/other');
  });
});
