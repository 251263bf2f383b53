/**
 * The clock is never a verdict (specs/run/test-clock.ts, specs/run/test-clock-fixture.ts): a test's allowance
 * grows by every wait the scheduler imposes (counted once when waits overlap); a test that reaches
 * Playwright's timeout anyway is reported skipped, with the reason, by Playwright (expected `timedOut`, exit 0)
 * and by the conformance reporter — while a real failure still fails.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { TestClock } from '../../specs/run/test-clock.ts';
import { createProject, ROOT, rule } from '../report/synthetic.ts';

test.describe.configure({ timeout: 120_000 });

test('a clock: waits extend its deadline and the test timeout, overlapping ones once; expired past the allowance', () => {
  let now = 1_000;
  const extended: number[] = [];
  const clock = new TestClock(
    500,
    (ms) => extended.push(ms),
    () => now,
  );
  expect(clock.deadline).toBe(1_500);
  clock.wait(300);
  now += 100;
  // 200 ms of this wait (until 1,400) overlap the first one (until 1,300): only 100 ms are new.
  clock.wait(300);
  expect(extended).toEqual([300, 100]);
  expect(clock.deadline).toBe(1_900);
  expect(clock.waitedMs).toBe(400);
  clock.sent();
  now = 1_899;
  expect(clock.expired()).toBe(false);
  now = 1_900;
  expect(clock.expired()).toBe(true);
  expect(clock.outOfTime().message).toMatch(
    /^the test's time ran out: it sent 1 request in 0\.9 s, 0\.5 s of it waiting for answers .* beyond its allowance of 0\.5 s/,
  );
  // No allowance (timeout 0): no deadline.
  expect(
    new TestClock(
      0,
      () => undefined,
      () => now,
    ).expired(),
  ).toBe(false);
});

const SPEC = `
import { expect, test as base } from '@playwright/test';
import { testClockFixture } from ${JSON.stringify(path.join(ROOT, 'specs/run/test-clock-fixture.ts'))};
import { currentTestClock } from ${JSON.stringify(path.join(ROOT, 'specs/run/test-clock.ts'))};
const test = base.extend({
  profile: [async ({}, use) => use({ budget: { timeoutMs: 100 } }), { scope: 'worker' }],
  clock: testClockFixture,
});
const meta = (id) => ({ tag: ['@must', '@rule:' + id] });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
test('outlives every deadline', meta('t.hangs'), async () => { await sleep(30_000); });
test('waits for the target longer than its timeout allows', meta('t.waits'), async () => {
  // Timeout 0.5 s + 0.1 s + 5 s of grace: 6.5 s of sleep fits only because the 1.5 s wait was added.
  currentTestClock()?.wait(1500);
  await sleep(6500);
});
test('a wrong answer', meta('t.fails'), async () => { expect(200, '[t.fails] expected 401').toBe(401); });
`;

test('Playwright’s timeout is a skip with the reason, never a failure; waits extend it; a real failure still fails', async () => {
  const project = await createProject({
    catalogue: [rule('t.hangs', 'MUST'), rule('t.waits', 'MUST'), rule('t.fails', 'MUST')],
    files: { 'clock.spec.ts': SPEC },
  });
  try {
    const run = await project.run(['--timeout=500']);
    // t.fails makes the run fail; without it, the timed-out test alone would not.
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/1 failed/);
    const rules = Object.fromEntries((await project.report()).rules.map((r) => [r.id, r]));
    expect(rules['t.hangs']).toMatchObject({ verdict: 'skip' });
    expect(rules['t.hangs']?.reason).toMatch(
      /ran out of time: Playwright's test timeout \(5\.6 s\) passed while the test was still running .* no verdict/,
    );
    expect(rules['t.waits']?.verdict).toBe('pass');
    expect(rules['t.fails']?.verdict).toBe('fail');
    // Without the wrong answer the timed-out test fails nothing: the run is Partial (a rule skipped for time),
    // and Playwright's exit code, which follows the gate (issue #67), is 0.
    const alone = await project.run(['--timeout=500', '--grep', 'outlives|waits for the target']);
    expect(alone.code, alone.stdout + alone.stderr).toBe(0);
    expect((await project.report()).conformance.outcome).toBe('partial');
  } finally {
    await project.dispose();
  }
});

test('a timed-out test the suite’s fixture did not mark is still reported skipped by the reporter', async () => {
  const project = await createProject({
    catalogue: [rule('t.bare', 'MUST')],
    files: {
      'bare.spec.ts': `import { test } from '@playwright/test';
test('no fixture', { tag: ['@must', '@rule:t.bare'] }, async () => { await new Promise((r) => setTimeout(r, 5000)); });
`,
    },
  });
  try {
    await project.run(['--timeout=300']);
    const [bare] = (await project.report()).rules;
    expect(bare).toMatchObject({ id: 't.bare', verdict: 'skip' });
    expect(bare?.reason).toMatch(
      /ran out of time: Playwright's test timeout \(0\.3 s\) ended it .* no verdict/,
    );
  } finally {
    await project.dispose();
  }
});
