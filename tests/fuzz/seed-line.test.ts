/**
 * The fuzz seed is printed once per run (docs/fuzzing.md), not once per worker: a run of the fuzz specs
 * on two workers shows the line once, in the runner's output or any test's captured output.
 */
import { expect, test } from '@playwright/test';
import { runSuite } from '../helpers/run-suite.ts';

test('two workers, one "gatecheck fuzz: seed" line', async () => {
  const run = await runSuite({
    args: ['--workers=2', 'fuzz/'],
    env: { GATECHECK_BUDGET: '60', GATECHECK_SEED: '7' },
  });
  expect(run.code, run.stderr).toBe(0);
  // Playwright's JSON report holds what each worker printed, by test; the runner's own output is stdout.
  const printed = `${run.stdout}\n${run.json}`;
  expect(printed.match(/gatecheck fuzz: seed /g) ?? []).toHaveLength(1);
  expect(run.stdout).toContain('gatecheck fuzz: seed 7 (GATECHECK_SEED), 60 cases across the fuzz rules');
  // The two workers did share the fuzz tests.
  expect(new Set(run.json.match(/"parallelIndex": \d/g))).toEqual(
    new Set(['"parallelIndex": 0', '"parallelIndex": 1']),
  );
});
