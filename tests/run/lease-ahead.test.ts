/**
 * A worker's scheduler asks for its next unpaced lease before its slots run out (specs/run/scheduler.ts), so
 * no request waits a round trip to the coordinator — and it still stops at the run's budget, still obeys a
 * pause, and never uses slots that were granted before the pause began.
 */
import { expect, test } from '@playwright/test';
import { RunCoordinator, type TargetPolicy } from '../../specs/run/coordinator.ts';
import { inProcessPort, type SchedulerPort } from '../../specs/run/port.ts';
import { RunBudgetExhausted, Scheduler } from '../../specs/run/scheduler.ts';

type Event = { readonly type: 'lease-asked' | 'lease-answered' | 'send'; readonly at: number };

/**
 * The in-process port with each lease's answer arriving `delayMs` after the coordinator gave it (the way back
 * of a round trip: a pause can begin meanwhile), every step recorded.
 */
function recordingPort(coordinator: RunCoordinator, delayMs: number) {
  const inner = inProcessPort(coordinator);
  const events: Event[] = [];
  const limited: number[] = [];
  const port: SchedulerPort = {
    ...inner,
    async lease(...args) {
      events.push({ type: 'lease-asked', at: Date.now() });
      const answer = await inner.lease(...args);
      await new Promise((r) => setTimeout(r, delayMs));
      events.push({ type: 'lease-answered', at: Date.now() });
      return answer;
    },
    async limited(...args) {
      const answer = await inner.limited(...args);
      limited.push(answer.resumeAt);
      return answer;
    },
  };
  return { port, events, limited };
}

const policy = (over: Partial<TargetPolicy> = {}): TargetPolicy => ({
  maxRequests: 10_000,
  maxSeconds: 600,
  ...over,
});

type Answer = { status: number; headers: Record<string, string> };
const ok: Answer = { status: 401, headers: {} };

function schedulerWith(port: SchedulerPort, p: TargetPolicy, batch = 4): Scheduler {
  return new Scheduler(port, 'http://127.0.0.1:1', p, () => '', batch);
}

test('unpaced: each lease after the first is asked for while slots of the previous one remain', async () => {
  const { port, events } = recordingPort(new RunCoordinator(), 20);
  const scheduler = schedulerWith(port, policy());
  for (let i = 0; i < 64; i++) {
    await scheduler.run(
      '',
      async () => {
        events.push({ type: 'send', at: Date.now() });
        return ok;
      },
      (a) => a,
    );
  }
  // Between a lease asked and its answer, requests went on with the slots left: the round trip was hidden.
  const asked = events.flatMap((e, i) => (e.type === 'lease-asked' ? [i] : []));
  expect(asked.length).toBeGreaterThan(2);
  for (const i of asked.slice(1)) {
    const answered = events.findIndex((e, j) => j > i && e.type === 'lease-answered');
    const sendsMeanwhile = events.slice(i, answered).filter((e) => e.type === 'send').length;
    expect(sendsMeanwhile, `sends while lease #${asked.indexOf(i) + 1} was on its way`).toBeGreaterThan(0);
  }
});

test('unpaced with leases asked ahead: stops exactly at budget.maxRequests, the rest get RunBudgetExhausted', async () => {
  const send = (count: { n: number }) => () =>
    schedulerRun(async () => {
      count.n++;
      return ok;
    });
  let schedulerRun: (s: () => Promise<Answer>) => Promise<Answer>;
  // One request after another: the lease asked ahead is the one the budget refuses, and its failure reaches
  // the next request that needs a slot.
  {
    const { port } = recordingPort(new RunCoordinator(), 5);
    const scheduler = schedulerWith(port, policy({ maxRequests: 50 }));
    schedulerRun = (s) => scheduler.run('', s, (a) => a);
    const count = { n: 0 };
    const outcomes: string[] = [];
    for (let i = 0; i < 60; i++) {
      outcomes.push(
        await send(count)().then(
          () => 'sent',
          (e: unknown) => (e instanceof RunBudgetExhausted ? 'exhausted' : String(e)),
        ),
      );
    }
    expect(count.n).toBe(50);
    expect(outcomes.slice(50)).toEqual(Array(10).fill('exhausted'));
  }
  // Many at once.
  {
    const { port } = recordingPort(new RunCoordinator(), 5);
    const scheduler = schedulerWith(port, policy({ maxRequests: 50 }));
    schedulerRun = (s) => scheduler.run('', s, (a) => a);
    const count = { n: 0 };
    const results = await Promise.allSettled(Array.from({ length: 120 }, () => send(count)()));
    expect(count.n).toBe(50);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(70);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(RunBudgetExhausted);
  }
});

test('a pause stops the worker: no request goes out before it ends, not even on a lease asked before it began', async () => {
  const { port, limited } = recordingPort(new RunCoordinator(), 30);
  const scheduler = schedulerWith(port, policy());
  const sends: number[] = [];
  let n = 0;
  const limitedAt: number[] = [];
  const one = () =>
    scheduler.run(
      '',
      async () => {
        const i = ++n;
        sends.push(Date.now());
        // The 14th request: the lease asked ahead (below 4 slots left of 16) is on its way.
        if (i === 14) {
          limitedAt.push(Date.now());
          return { status: 429, headers: { 'retry-after': '1' } };
        }
        return ok;
      },
      (a) => a,
    );
  // Two requests at a time, as a worker keeps several in flight.
  await Promise.all([
    (async () => {
      for (let i = 0; i < 12; i++) await one();
    })(),
    (async () => {
      for (let i = 0; i < 12; i++) await one();
    })(),
  ]);
  expect(limited).toHaveLength(1);
  const resumeAt = limited[0] as number;
  const reportedAt = limitedAt[0] as number;
  // At most the other request in flight, which held its slot before the pause began.
  const duringPause = sends.filter((t) => t > reportedAt && t < resumeAt);
  expect(duringPause.length, 'requests sent while the run was paused').toBeLessThanOrEqual(1);
  expect(sends).toHaveLength(25); // 24 requests, the limited one sent twice
});
