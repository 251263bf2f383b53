/**
 * A check that expects 403 (access.403.*, authz.403.*) is judged on the 403 it gets: a 403 without
 * Retry-After is a ban only for requests that did not expect it (specs/run/limited-answer.ts), even when the
 * profile declares bans and a 429 was met just before.
 */
import { expect, test } from '@playwright/test';
import { RunCoordinator, type TargetPolicy } from '../../specs/run/coordinator.ts';
import { limitedAnswer } from '../../specs/run/limited-answer.ts';
import { inProcessPort } from '../../specs/run/port.ts';
import { Scheduler } from '../../specs/run/scheduler.ts';

const POLICY: TargetPolicy = {
  declared: { limit: 100, windowSeconds: 1, key: 'identity' },
  ban: { seconds: 1 },
  maxRequests: 1000,
  maxSeconds: 60,
};
const BANNING = { banDeclared: true, banSeconds: 1, limitedRecently: true };
interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
}
const FORBIDDEN: Answer = { status: 403, headers: {} };

test('limitedAnswer: a 403 the request expected is no ban without Retry-After; with it, it still is', () => {
  expect(limitedAnswer(FORBIDDEN, BANNING)?.kind).toBe('banned');
  expect(limitedAnswer(FORBIDDEN, BANNING, Date.now(), [403])).toBeUndefined();
  expect(
    limitedAnswer({ status: 403, headers: { 'retry-after': '1' } }, BANNING, Date.now(), [403])?.kind,
  ).toBe('banned');
  expect(limitedAnswer({ status: 429, headers: {} }, BANNING, Date.now(), [403])?.kind).toBe('limited');
});

test('Scheduler.run: after a 429, an expected 403 is returned at once, not waited out and re-sent', async () => {
  const scheduler = new Scheduler(inProcessPort(new RunCoordinator()), 't', POLICY, () => 'user', 4);
  const head = (a: Answer) => a;
  // A 429 that asks for no wait: the scheduler now knows the target limited it recently.
  const limited: Answer[] = [
    { status: 429, headers: { 'retry-after': '0' } },
    { status: 200, headers: {} },
  ];
  await scheduler.run('user', async () => limited.shift() ?? { status: 200, headers: {} }, head);
  const answers: Answer[] = [FORBIDDEN, { status: 200, headers: {} }];
  let sent = 0;
  const answer = await scheduler.run(
    'user',
    async () => {
      sent++;
      return answers.shift() ?? { status: 200, headers: {} };
    },
    head,
    { expect: [403] },
  );
  expect(answer.status).toBe(403);
  expect(sent).toBe(1);
});
