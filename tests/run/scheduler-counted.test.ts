/**
 * The target's limiter says what it counted (specs/run/limited-answer.ts countedByLimiter): an answer that states
 * the requests left, to a request the run took for one the target answers before its limit (specs/run/scopes.ts
 * `unrouted`), tells the run's coordinator that the target counts such requests — before any limited answer.
 */
import { expect, test } from '@playwright/test';
import { RunCoordinator, type TargetPolicy, UNROUTED_COUNTED } from '../../specs/run/coordinator.ts';
import { countedByLimiter } from '../../specs/run/limited-answer.ts';
import { inProcessPort } from '../../specs/run/port.ts';
import { Scheduler } from '../../specs/run/scheduler.ts';
import { encodeScope } from '../../specs/run/scopes.ts';

const POLICY: TargetPolicy = {
  declared: { limit: 100, windowSeconds: 1, key: 'identity' },
  maxRequests: 1000,
  maxSeconds: 60,
};
/** A request to no declared route (an unknown path's spelling), without a credential. */
const unrouted = encodeScope({
  counted: true,
  route: '/ADMIN',
  identity: '',
  credential: '',
  unrouted: true,
});
interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
}
test('Scheduler.run: an answer that states the requests left, to a request the run took for one answered before the limit, tells the coordinator the target counts them', async () => {
  const answered = (headers: Record<string, string>) => async () => ({ status: 404, headers });
  const head = (a: Answer) => a;
  const routedScope = encodeScope({ counted: true, route: '/users', identity: '', credential: '' });
  for (const [bucket, headers, learns] of [
    [unrouted, { 'x-ratelimit-remaining': '57' }, true],
    [unrouted, { ratelimit: '"default";r=57;t=10' }, true],
    [unrouted, { 'ratelimit-policy': '60;w=10' }, false],
    [unrouted, {}, false],
    [routedScope, { 'x-ratelimit-remaining': '57' }, false],
  ] as const) {
    const co = new RunCoordinator();
    const scheduler = new Scheduler(inProcessPort(co), 't', POLICY, () => bucket, 4);
    await scheduler.run(bucket, answered(headers), head);
    // The lesson travels without waiting for the answer: give it a turn.
    await new Promise((r) => setTimeout(r, 10));
    const notes = co.politeness().notes ?? [];
    expect(
      notes.some((n) => n.startsWith(UNROUTED_COUNTED)),
      JSON.stringify(headers),
    ).toBe(learns);
  }
  expect(countedByLimiter({ 'x-rate-limit-remaining': '1' })).toBe(true);
});

test('two limits: the lesson is the limit the answer states — a gateway in front that counts them teaches its own limit, and the service behind keeps them apart', async () => {
  const policy: TargetPolicy = {
    limits: [
      { limit: 20, windowSeconds: 10, key: 'address', label: 'anon' },
      { limit: 60, windowSeconds: 10, key: 'identity', label: 'user' },
    ],
    maxRequests: 1000,
    maxSeconds: 60,
  };
  const lessons = async (headers: Record<string, string>) => {
    const co = new RunCoordinator();
    const scheduler = new Scheduler(inProcessPort(co), 't', policy, () => unrouted, 4);
    await scheduler.run(
      unrouted,
      async () => ({ status: 404, headers }),
      (a: Answer) => a,
    );
    await new Promise((r) => setTimeout(r, 10));
    co.sent('t', [[unrouted, Date.now()]]);
    const notes = co.politeness().notes ?? [];
    const taught = ['anon', 'user'].filter((label) =>
      notes.some((n) => n.startsWith(`${label}: ${UNROUTED_COUNTED}`)),
    );
    const apart = (co.politeness().counters ?? []).filter(
      (c) => c.requests > 0 && c.counter.includes('unrouted'),
    );
    return { taught, apart: apart.map((c) => c.counter) };
  };
  // @fastify/rate-limit in front (20 per 10 s) states its limit: only its limit counts them with the rest.
  const front = await lessons({ 'x-ratelimit-remaining': '17', 'x-ratelimit-limit': '20' });
  expect(front.taught).toEqual(['anon']);
  expect(front.apart).toEqual([expect.stringMatching(/^#2 /)]);
  expect((await lessons({ 'ratelimit-remaining': '50', 'ratelimit-policy': '60;w=10' })).taught).toEqual([
    'user',
  ]);
  // No limit stated, or one the profile does not declare: every limit that counts the request learns it.
  expect((await lessons({ 'x-ratelimit-remaining': '17' })).taught).toEqual(['anon', 'user']);
  expect((await lessons({ 'x-ratelimit-remaining': '17', 'x-ratelimit-limit': '1000' })).taught).toEqual([
    'anon',
    'user',
  ]);
});
