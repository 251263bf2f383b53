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
interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
}
test('Scheduler.run: an answer that states the requests left, to a request the run took for one answered before the limit, tells the coordinator the target counts them', async () => {
  const answered = (headers: Record<string, string>) => async () => ({ status: 404, headers });
  const head = (a: Answer) => a;
  const unrouted = encodeScope({
    counted: true,
    route: '/ADMIN',
    identity: '',
    credential: '',
    unrouted: true,
  });
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
