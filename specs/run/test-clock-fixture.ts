/**
 * The suite sets its tests' timeouts itself (docs/design.md "A polite client"): an automatic test fixture
 * gives each test a clock (specs/run/test-clock.ts) whose allowance is the configured timeout (`timeout`,
 * `--timeout`) of active time, and sets Playwright's timeout to that allowance plus a grace period for the
 * request in flight — every wait the scheduler imposes is then added to both as it happens, so waiting for
 * the target's rate limit never runs a test out of time.
 *
 * Last line of defence: a test that reaches Playwright's timeout anyway is a clock, not an answer. Its
 * expected status becomes `timedOut` (Playwright then counts it as expected, not failed) and a `skip`
 * annotation gives the reason; the conformance reporter reports it skipped (specs/report/collect.ts).
 */
import type { TestInfo } from '@playwright/test';
import { DEFAULT_TIMEOUT_MS } from '../lib/budget.ts';
import type { Profile } from '../profile/types.ts';
import { flushSchedulers } from './scheduler.ts';
import { setCurrentTestClock, TestClock } from './test-clock.ts';

/** Added to Playwright's timeout beyond the test's own deadline, on top of one request's timeout. */
const GRACE_MS = 5_000;

export const testClockFixture: [
  (args: { profile: Profile }, use: (clock: TestClock) => Promise<void>, testInfo: TestInfo) => Promise<void>,
  { auto: true },
] = [
  async ({ profile }, use, testInfo) => {
    const allowance = testInfo.timeout;
    if (allowance > 0)
      testInfo.setTimeout(allowance + (profile.budget?.timeoutMs ?? DEFAULT_TIMEOUT_MS) + GRACE_MS);
    const clock = new TestClock(allowance, (ms) => {
      if (testInfo.timeout > 0) testInfo.setTimeout(testInfo.timeout + ms);
    });
    setCurrentTestClock(clock);
    try {
      await use(clock);
    } finally {
      setCurrentTestClock(undefined);
      // The test's requests reach the run's figures before the next test (or the end of the run).
      await flushSchedulers();
    }
    if (testInfo.status === 'timedOut') {
      testInfo.expectedStatus = 'timedOut';
      testInfo.annotations.push({ type: 'skip', description: clock.timedOutReason(testInfo.timeout) });
    }
  },
  { auto: true },
];
