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
import { RunCoordinator, type TargetPolicy } from '../../specs/run/coordinator.ts';
import { declaredRateHint, limitedAnswer, resetHintMs } from '../../specs/run/limited-answer.ts';
import { Pacer, paceForLimit } from '../../specs/run/pacer.ts';

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

  test('the rate an answer declares: RateLimit-Policy q/w, the slowest of several', () => {
    expect(declaredRateHint({ 'ratelimit-policy': '"default";q=60;w=10, "burst";q=10;w=1' })).toBe(6);
    expect(declaredRateHint({ 'ratelimit-limit': '100, 100;w=60' })).toBeCloseTo(100 / 60);
    expect(declaredRateHint({})).toBeUndefined();
  });
});

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
    const first = co.lease('t', '', 4, 'w1');
    expect('at' in first && first.at.length >= 4 && first.at.every((t) => t === NOW)).toBe(true);
    const { resumeAt } = co.limited('t', { kind: 'limited', waitMs: 2000, reason: '429' }, '');
    expect(resumeAt).toBe(NOW + 2100);
    // Another worker is paused too, until the wait is over.
    expect(co.lease('t', '', 1, 'w2')).toEqual({ retryAt: NOW + 2100 });
    c.advance(2100);
    const after = co.lease('t', '', 3, 'w2');
    if (!('at' in after)) throw new Error('expected slots');
    // A pace now: the slots are spread, not all at once.
    expect(new Set(after.at).size).toBe(after.at.length);
    expect(co.politeness()).toMatchObject({ limitedAnswers: 1, waitedMs: 2100, slowestWaitMs: 2100 });
  });

  test('a limited answer that names no wait backs off, doubling per event, not per request', () => {
    const c = clock();
    const co = new RunCoordinator(c.now);
    co.register('t', policy());
    expect(co.limited('t', { kind: 'limited', waitMs: undefined, reason: '429' }, '').resumeAt).toBe(
      NOW + 1100,
    );
    // Same event (answers to requests in flight together): the same wait.
    expect(co.limited('t', { kind: 'limited', waitMs: undefined, reason: '429' }, '').resumeAt).toBe(
      NOW + 1100,
    );
    c.advance(1200);
    expect(co.limited('t', { kind: 'limited', waitMs: undefined, reason: '429' }, '').resumeAt).toBe(
      NOW + 1200 + 2100,
    );
  });

  test('declared per address: one paced counter for the whole run', () => {
    const co = new RunCoordinator(() => NOW);
    co.register('t', policy({ declared: { limit: 20, windowSeconds: 2, key: 'address' } }));
    const a = co.lease('t', 'all', 8, 'w1');
    const b = co.lease('t', 'all', 8, 'w2');
    if (!('at' in a) || !('at' in b)) throw new Error('expected slots');
    const times = [...a.at, ...b.at].sort((x, y) => x - y);
    expect(mostWithin(times, 2000)).toBeLessThanOrEqual(20);
    expect(times.at(-1)).toBeGreaterThan(NOW);
  });

  test('declared per identity: a limit met by one identity pauses that identity only', () => {
    const co = new RunCoordinator(() => NOW);
    co.register('t', policy({ declared: { limit: 300, windowSeconds: 10, key: 'identity' } }));
    co.limited('t', { kind: 'limited', waitMs: 5000, reason: '429' }, 'admin');
    expect(co.lease('t', 'admin', 1, 'w1')).toMatchObject({ retryAt: NOW + 5100 });
    const user = co.lease('t', 'user', 1, 'w1');
    const other = co.lease('t', '', 1, 'w1');
    expect('at' in user && user.at[0]).toBe(NOW);
    expect('at' in other && other.at[0]).toBe(NOW);
  });

  test('declared per identity: a limited answer to unrecognised requests pauses them but sets no pace', () => {
    const c = { now: NOW };
    const co = new RunCoordinator(() => c.now);
    co.register('t', policy({ declared: { limit: 300, windowSeconds: 10, key: 'identity' } }));
    co.limited('t', { kind: 'limited', waitMs: 3000, reason: '429' }, '', 30);
    expect(co.lease('t', '', 1, 'w1')).toEqual({ retryAt: NOW + 3100 });
    c.now += 3100;
    // After the wait, all at once again: one identity's quota must not set the pace of every other request.
    const after = co.lease('t', '', 4, 'w1');
    expect('at' in after && after.at.every((t) => t === c.now)).toBe(true);
    expect(co.politeness().pacePerSecond).toBe(0.9 * 30);
  });

  test('declared for one endpoint per address: its requests are paced, every other request is not', () => {
    const co = new RunCoordinator(() => NOW);
    co.register(
      't',
      policy({ declared: { limit: 20, windowSeconds: 2, key: 'address', onlyEndpoint: true } }),
    );
    const limited = co.lease('t', 'all', 8, 'w1');
    const other = co.lease('t', '', 8, 'w1');
    if (!('at' in limited) || !('at' in other)) throw new Error('expected slots');
    expect(limited.at.at(-1)).toBeGreaterThan(NOW);
    expect(other.at.every((t) => t === NOW)).toBe(true);
  });

  test('exclusive use: others wait; the holder is neither paused nor paced; the cooldown pauses the run', () => {
    const c = clock();
    const co = new RunCoordinator(c.now);
    co.register('t', policy({ declared: { limit: 10, windowSeconds: 1, key: 'address' } }));
    const start = co.exclusive('t', 'burst');
    expect(start).toMatchObject({ startAt: expect.any(Number) });
    expect(co.exclusive('t', 'other')).toEqual({ retryAt: NOW + 100 });
    expect(co.lease('t', 'all', 1, 'other')).toEqual({ retryAt: NOW + 100 });
    const burst = co.lease('t', 'all', 30, 'burst', true);
    expect(burst).toMatchObject({ at: Array.from({ length: 30 }, () => NOW) });
    co.release('t', 'burst', 1500);
    expect(co.lease('t', 'all', 1, 'other')).toEqual({ retryAt: NOW + 1500 });
  });

  test('budgets: maxRequests counts every slot; a wait past maxSeconds is not affordable', () => {
    const c = clock();
    const co = new RunCoordinator(c.now);
    co.register('t', policy({ maxRequests: 20, maxSeconds: 10 }));
    expect(co.lease('t', '', 20, 'w')).toMatchObject({ at: expect.any(Array) });
    expect(co.lease('t', '', 1, 'w')).toEqual({ exhausted: 'budget.maxRequests (20) is spent' });
    const co2 = new RunCoordinator(c.now);
    co2.register('t', policy({ maxSeconds: 10 }));
    expect(
      co2.limited('t', { kind: 'banned', waitMs: 30_000, reason: '403 with Retry-After' }, ''),
    ).toMatchObject({ affordable: false });
    c.advance(10_000);
    expect(co2.lease('t', '', 1, 'w')).toEqual({ exhausted: 'budget.maxSeconds (10 s) has run out' });
  });
});

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
    endpoints: {},
    identities: {
      admin: { bearer: 'tok.en.a', basic: { username: 'alice', password: 'pw:1' }, apikey: 'k1' },
      user: { apikey: 'k2' },
    },
  } as unknown as Profile;

  test('per identity: a declared identity’s exact credential (any scheme case, 1*SP); anything else is ""', () => {
    const of = bucketer({ ...profile, rateLimit: { limit: 1, windowSeconds: 1, key: 'identity' } });
    expect(of('/x', ['Bearer tok.en.a'])).toBe('admin');
    expect(of('/x', ['bEaReR   tok.en.a'])).toBe('admin');
    expect(of('/x', [`Basic ${Buffer.from('alice:pw:1').toString('base64')}`])).toBe('admin');
    expect(of('/x', ['Apikey k2'])).toBe('user');
    // A wrong password is not verified as alice: the target counts it elsewhere.
    expect(of('/x', [`Basic ${Buffer.from('alice:wrong').toString('base64')}`])).toBe('');
    expect(of('/x', ['Bearer tok.en.b'])).toBe('');
    expect(of('/x', ['Bearer tok.en.a', 'Bearer tok.en.a'])).toBe('');
  });

  test("per identity, a key in the target's own form (apikeyScheme): its word, a parameter, or the key alone", () => {
    const limit = { limit: 1, windowSeconds: 1, key: 'identity' } as const;
    const token = bucketer({ ...profile, apikeyScheme: 'Token', rateLimit: limit });
    expect(token('/x', ['tOkEn k2'])).toBe('user');
    expect(token('/x', ['Apikey k2'])).toBe('');
    const param = bucketer({ ...profile, apikeyScheme: 'MediaBrowser Token', rateLimit: limit });
    expect(param('/x', ['MediaBrowser Token="k1"'])).toBe('admin');
    expect(param('/x', ['MediaBrowser k1'])).toBe('');
    const bare = bucketer({ ...profile, apikeyScheme: '', rateLimit: limit });
    expect(bare('/x', ['k2'])).toBe('user');
    expect(bare('/x', ['Bearer tok.en.a'])).toBe('admin');
  });

  test('a limit of one endpoint (appliesTo endpoint): its requests count as declared, every other request as ""', () => {
    const only = { path: '/limited' };
    const byIdentity = bucketer({
      ...profile,
      rateLimit: { limit: 1, windowSeconds: 1, key: 'identity', appliesTo: 'endpoint', endpoint: only },
    });
    expect(byIdentity('/limited', ['Bearer tok.en.a'])).toBe('admin');
    expect(byIdentity('/limited?x=1', ['Bearer tok.en.a'])).toBe('admin');
    expect(byIdentity('/x', ['Bearer tok.en.a'])).toBe('');
    const byAddress = bucketer({
      ...profile,
      rateLimit: { limit: 1, windowSeconds: 1, key: 'address', appliesTo: 'endpoint', endpoint: only },
    });
    expect([byAddress('/limited', []), byAddress('/x', [])]).toEqual(['all', '']);
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
    expect([withBase('/api/limited', []), withBase('/limited', [])]).toEqual(['all', '']);
    const byDefault = bucketer({
      ...profile,
      endpoints: { protected: { path: '/protected' } },
      rateLimit: { limit: 1, windowSeconds: 1, key: 'address', appliesTo: 'endpoint' },
    } as Profile);
    expect([byDefault('/protected', []), byDefault('/users', [])]).toEqual(['all', '']);
  });

  test('per address: everything counts once; per endpoint: by path, query aside; undeclared: ""', () => {
    expect(
      bucketer({ ...profile, rateLimit: { limit: 1, windowSeconds: 1, key: 'address' } })('/a', []),
    ).toBe('all');
    expect(
      bucketer({ ...profile, rateLimit: { limit: 1, windowSeconds: 1, key: 'endpoint' } })('/a?x=1', []),
    ).toBe('/a');
    expect(bucketer(profile)('/a', ['Apikey k1'])).toBe('');
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
    const of = bucketer(profile);
    expect(of('/x', [`Bearer ${await mint({ sub: 'bob', roles: ['admin'] })}`])).toBe('user');
    expect(of('/x', [`bearer  ${await mint({ sub: 'alice' })}`])).toBe('admin');
  });

  test('one the target would not verify (forged, unsigned, expired, wrong issuer or audience, unknown sub) is ""', async () => {
    const of = bucketer(profile);
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
