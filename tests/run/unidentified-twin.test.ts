/**
 * Under a limit per identity, a request without a credential to a route that needs one counts apart
 * (specs/run/scopes.ts RequestScope.unidentified): a limiter keyed per identity runs after authentication, which
 * refuses such a request first (DRF: authentication, permissions, then throttles) — until a limited answer to
 * one, or an answer stating the requests left of the limit that counts it, says the target counts it too.
 */
import { expect, test } from '@playwright/test';
import type { Profile } from '../../specs/profile/types.ts';
import { bucketer } from '../../specs/run/buckets.ts';
import { RunCoordinator, type TargetPolicy, UNIDENTIFIED_COUNTED } from '../../specs/run/coordinator.ts';
import { apartMarkOf, decodeScope, encodeScope, type RequestScope } from '../../specs/run/scopes.ts';

const NOW = Date.parse('2026-11-28T12:00:00Z');

const PROFILE = {
  name: 'p',
  endpoints: {
    public: { path: '/users' },
    protected: { path: '/protected', schemes: ['bearer'] },
    collection: { path: '/users', writeSchemes: ['bearer'] },
  },
  identities: { user: { bearer: 'tok.user' } },
} as unknown as Profile;

test('the mark: no credential, a declared route that needs one, a limit per identity that counts it', () => {
  const perIdentity = bucketer({ ...PROFILE, rateLimit: { limit: 60, windowSeconds: 10, key: 'identity' } });
  const mark = (path: string, authorization: string[] = [], method = 'GET') =>
    decodeScope(perIdentity(path, authorization, method)).unidentified === true;
  expect(mark('/protected')).toBe(true);
  expect(mark('/users', [], 'POST')).toBe(true);
  // The public route's read needs none; a credential is not "without one"; an unknown path is unrouted.
  expect(mark('/users')).toBe(false);
  expect(mark('/users', [], 'HEAD')).toBe(false);
  expect(mark('/protected', ['Bearer nobody'])).toBe(false);
  expect(mark('/nowhere')).toBe(false);
  // Under a key per address (nginx limit_req counts them all) nothing is marked.
  const perAddress = bucketer({ ...PROFILE, rateLimit: { limit: 60, windowSeconds: 10, key: 'address' } });
  expect(decodeScope(perAddress('/protected', [])).unidentified).toBeUndefined();
  const scope = decodeScope(perIdentity('/protected', []));
  expect(decodeScope(encodeScope(scope))).toEqual(scope);
  // A worker reads the mark without decoding, beside the public route's mark too (a write to its path).
  expect(apartMarkOf(perIdentity('/protected', []))).toBe('unidentified');
  expect(apartMarkOf(perIdentity('/users', [], 'POST'))).toBe('unidentified');
  expect(apartMarkOf(perIdentity('/users', []))).toBeUndefined();
  expect(apartMarkOf(perIdentity('/nowhere', []))).toBe('unrouted');
});

const anonymous = (route: string, unidentified: boolean): string =>
  encodeScope({
    counted: true,
    route,
    identity: '',
    credential: '',
    ...(route === '/users' ? { publicRoute: true } : {}),
    ...(unidentified ? { unidentified: true } : {}),
  } satisfies RequestScope);

/** The send times the coordinator grants, one request at a time, for `n` requests of each scope in turn. */
function grants(co: RunCoordinator, scopes: readonly string[], n: number): number[][] {
  return scopes.map((scope) =>
    Array.from({ length: n }, () => {
      const answer = co.lease('t', scope, 1, 'w');
      if (!('at' in answer)) throw new Error(`no slot: ${JSON.stringify(answer)}`);
      return answer.at[0] as number;
    }),
  );
}

const PER_IDENTITY: TargetPolicy = {
  declared: { limit: 60, windowSeconds: 10, key: 'identity' },
  maxRequests: 10_000,
  maxSeconds: 600,
};

test('per identity: the public route’s anonymous requests and those to a protected route each get the declared limit, until a limited answer to one says the target counts them together', () => {
  const now = { t: NOW };
  const co = new RunCoordinator(() => now.t);
  co.register('t', PER_IDENTITY);
  const publicRead = anonymous('/users', false);
  const refused = anonymous('/protected', true);
  // A window's worth of each, both at once: neither waits for the other (before: the second 57 a window later).
  const [reads = [], refusals = []] = grants(co, [publicRead, refused], 57);
  expect(Math.max(...reads, ...refusals)).toBe(NOW);
  // The target limits one of the protected route's requests: it counts them with the public route's.
  now.t += 1_000;
  co.limited('t', { kind: 'limited', reason: 'rate limited (429)', waitMs: 9_000 }, refused);
  expect((co.politeness().notes ?? []).some((n) => n.startsWith(UNIDENTIFIED_COUNTED))).toBe(true);
  // A window on, both kinds again: one counter now, so together no more than the limit within a window.
  now.t += 10_000;
  const [reads2 = [], refusals2 = []] = grants(co, [publicRead, refused], 57);
  expect([...reads2, ...refusals2].filter((t) => t < now.t + 10_000).length).toBeLessThanOrEqual(57);
});

/** DRF's two limits: anonymous 20 per 10 s per address (a gateway in front), 60 per 10 s per user. */
function twoLimits(): RunCoordinator {
  const co = new RunCoordinator(() => NOW);
  co.register('t', {
    limits: [
      { limit: 20, windowSeconds: 10, key: 'address', label: 'anon' },
      { limit: 60, windowSeconds: 10, key: 'identity', label: 'user' },
    ],
    maxRequests: 10_000,
    maxSeconds: 600,
  });
  return co;
}

test('two limits, a gateway per address in front stating its limit: only its limit learns; the one per identity keeps them apart', () => {
  const co = twoLimits();
  const refused = anonymous('/protected', true);
  co.counted('t', refused, 20);
  const notes = co.politeness().notes ?? [];
  expect(notes.some((n) => n.startsWith(`user: ${UNIDENTIFIED_COUNTED}`))).toBe(false);
  // Stated by the limit per identity (or by none the profile names): that one learns.
  co.counted('t', refused, 60);
  expect((co.politeness().notes ?? []).some((n) => n.startsWith(`user: ${UNIDENTIFIED_COUNTED}`))).toBe(true);
});

test('two limits: a limited answer to such a request teaches the limit per identity only when it is that limit’s — its policy states that rate', () => {
  const refused = anonymous('/protected', true);
  const learned = (co: RunCoordinator) =>
    (co.politeness().notes ?? []).some((n) => n.startsWith(`user: ${UNIDENTIFIED_COUNTED}`));
  const signal = { kind: 'limited', reason: 'rate limited (429)', waitMs: 5_000 } as const;
  // The gateway per address in front limited it (a 429 naming no rate): nothing said of the limit per identity.
  const front = twoLimits();
  front.limited('t', signal, refused);
  expect(learned(front)).toBe(false);
  // The answer's policy states 60 per 10 s: the limit per identity's.
  const behind = twoLimits();
  behind.limited('t', signal, refused, 6);
  expect(learned(behind)).toBe(true);
});
