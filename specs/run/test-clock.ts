/**
 * The clock is never a verdict (docs/design.md "A polite client"): a test's own time. Each test gets an
 * allowance of *active* time — Playwright's timeout as configured (`timeout` in the config, `--timeout`) —
 * and every wait the run's scheduler imposes on it (a pace, a pause for a limited answer, another rule's
 * exclusive use of the target) is added to that allowance and to Playwright's timeout, as it happens. So
 * waiting for the target's rate limit never uses up a test's time, and only a target slower than the
 * allowance (its answers, not its limits) can: then the scheduler stops starting the test's requests at
 * its deadline and the test is skipped with what it sent and what it would have needed (TestOutOfTime).
 * Playwright's own timeout sits a grace period later (an in-flight request may still land), and is the
 * last line of defence: a test that reaches it is reported skipped with the reason, never failed
 * (specs/run/test-clock-fixture.ts, specs/report/collect.ts).
 *
 * Playwright-free: the fixture passes in how to extend the test's timeout. One test runs at a time in a
 * worker process, so the running test's clock is a module value the scheduler reads (`currentTestClock`).
 */
import { RunBudgetExhausted } from './run-budget.ts';

/** The test's own allowance ran out before it finished: it is skipped with this message, never failed. */
export class TestOutOfTime extends RunBudgetExhausted {
  override readonly name = 'TestOutOfTime';
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;
const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

export class TestClock {
  readonly startedAt: number;
  /** When the test stops starting requests (epoch ms): start + allowance + the waits counted so far. */
  private deadlineAt: number;
  /** The end of the latest wait counted: concurrent waits of one test count once (their union). */
  private waitedUntil = 0;
  private waited = 0;
  private requests = 0;

  constructor(
    /** Active time the test may use (ms); 0 or Infinity: no deadline. */
    readonly allowanceMs: number,
    /** Adds `ms` to Playwright's timeout for the running test. */
    private readonly extendTimeout: (ms: number) => void,
    private readonly clock: () => number = Date.now,
  ) {
    this.startedAt = clock();
    this.deadlineAt = allowanceMs > 0 ? this.startedAt + allowanceMs : Number.POSITIVE_INFINITY;
  }

  /** Epoch ms after which the test starts no request. */
  get deadline(): number {
    return this.deadlineAt;
  }

  /** Total time the scheduler made this test wait (the union of its waits). */
  get waitedMs(): number {
    return this.waited;
  }

  /**
   * The scheduler makes the test wait `ms` from now (a slot further on, a pause): the allowance and
   * Playwright's timeout grow by the part of it not already counted.
   */
  wait(ms: number): void {
    if (!(ms > 0)) return;
    const now = this.clock();
    const until = now + ms;
    const added = until - Math.max(now, this.waitedUntil);
    if (added <= 0) return;
    this.waitedUntil = until;
    this.waited += added;
    this.deadlineAt += added;
    this.extendTimeout(added);
  }

  /** One more request of this test goes out. */
  sent(): void {
    this.requests++;
  }

  /** Active time (not spent waiting for the scheduler) per request sent so far; undefined before any. */
  activeMsPerRequest(): number | undefined {
    if (this.requests === 0) return undefined;
    return (this.clock() - this.startedAt - this.waited) / this.requests;
  }

  expired(): boolean {
    return this.clock() >= this.deadlineAt;
  }

  /** Why the test stopped: what it sent in how long, and how much of that was its own (active) time. */
  outOfTime(): TestOutOfTime {
    const elapsed = this.clock() - this.startedAt;
    const active = elapsed - this.waited;
    const each = this.requests > 0 ? ` (${seconds(active / this.requests)} of active time per request)` : '';
    return new TestOutOfTime(
      `the test's time ran out: it sent ${plural(this.requests, 'request')} in ${seconds(elapsed)}, ` +
        `${seconds(active)} of it waiting for answers${each}, beyond its allowance of ${seconds(this.allowanceMs)} ` +
        `(the test timeout; ${seconds(this.waited)} of waiting for the target's rate limit came on top). ` +
        'A slow answer is no verdict: raise --timeout to let the check finish',
    );
  }

  /** The reason given when Playwright's own timeout ended the test anyway. */
  timedOutReason(timeoutMs: number): string {
    return (
      `ran out of time: Playwright's test timeout (${seconds(timeoutMs)}) passed while the test was still running ` +
      `(allowance ${seconds(this.allowanceMs)} of active time, plus ${seconds(this.waited)} waiting for the target's ` +
      `rate limit; ${plural(this.requests, 'request')} sent). Time is not evidence about the target: no verdict. Raise --timeout to let it finish`
    );
  }
}

let current: TestClock | undefined;

/** The running test's clock in this worker, if the suite's fixture set one. */
export function currentTestClock(): TestClock | undefined {
  return current;
}

export function setCurrentTestClock(clock: TestClock | undefined): void {
  current = clock;
}
