/**
 * A ban told from a refusal by a control, not by the status (#38): while a declared ban may be in force, a 403
 * without Retry-After is the ban's only if a request that must be served now — the same identity on the
 * protected path, or the public path without credentials — is refused too; otherwise it is the target's answer,
 * returned to be judged (a role refused on an admin path: seed §7 cause 4).
 */
import { expect, test } from '@playwright/test';
import { RunCoordinator, type TargetPolicy } from '../../specs/run/coordinator.ts';
import { inProcessPort } from '../../specs/run/port.ts';
import { Scheduler } from '../../specs/run/scheduler.ts';
import { encodeScope } from '../../specs/run/scopes.ts';

const POLICY: TargetPolicy = {
  declared: { limit: 100, windowSeconds: 1, key: 'address' },
  ban: { seconds: 1 },
  maxRequests: 1000,
  maxSeconds: 60,
};
interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
}
const OK: Answer = { status: 200, headers: {} };
const FORBIDDEN: Answer = { status: 403, headers: {} };
const head = (a: Answer) => a;
const CONTROLS = { anonymous: '/public', identity: '/protected' };

const userScope = encodeScope({
  counted: true,
  route: '/admin',
  identity: 'user',
  credential: 'digest-user',
});
const strangerScope = encodeScope({ counted: true, route: '/admin', identity: '', credential: 'digest-x' });

/** A scheduler that has just met a 429 (so a declared ban may be in force). */
async function afterLimited(): Promise<Scheduler> {
  const scheduler = new Scheduler(
    inProcessPort(new RunCoordinator()),
    't',
    POLICY,
    () => userScope,
    4,
    CONTROLS,
  );
  const limited: Answer[] = [{ status: 429, headers: { 'retry-after': '0' } }, OK];
  await scheduler.run(userScope, async () => limited.shift() ?? OK, head);
  return scheduler;
}

test('a 403 while the control is served is the answer to judge: returned at once, not waited out', async () => {
  const scheduler = await afterLimited();
  const controls: [string, string | undefined][] = [];
  let sent = 0;
  const answer = await scheduler.run(
    userScope,
    async () => {
      sent++;
      return sent === 1 ? FORBIDDEN : OK;
    },
    head,
    {
      authorization: 'Bearer user-token',
      control: async (path, value) => {
        controls.push([path, value]);
        return OK;
      },
    },
  );
  expect(answer.status).toBe(403);
  expect(sent).toBe(1);
  // The same identity on the path it may read.
  expect(controls).toEqual([['/protected', 'Bearer user-token']]);
});

test('a 403 while the control is refused too is the ban: waited out and the request sent again', async () => {
  const scheduler = await afterLimited();
  let sent = 0;
  const answer = await scheduler.run(
    userScope,
    async () => {
      sent++;
      return sent === 1 ? FORBIDDEN : OK;
    },
    head,
    { authorization: 'Bearer user-token', control: async () => FORBIDDEN },
  );
  expect(answer.status).toBe(200);
  expect(sent).toBe(2);
});

test('a credential of no declared identity: the control is the public path without credentials', async () => {
  const scheduler = await afterLimited();
  const controls: [string, string | undefined][] = [];
  const answer = await scheduler.run(strangerScope, async () => FORBIDDEN, head, {
    authorization: 'Bearer fuzzed',
    control: async (path, value) => {
      controls.push([path, value]);
      return OK;
    },
  });
  expect(answer.status).toBe(403);
  expect(controls).toEqual([['/public', undefined]]);
});
