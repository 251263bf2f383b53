/**
 * A run that stops before any test says so: the console and the report name what stopped it, and the rules
 * are "not run" because the run stopped, never "no test in this suite version checks this rule yet". Two ways
 * to stop: a profile file that does not exist (as when docs/package.md's config snippet is run as written),
 * and a set-up that refuses (gatecheck's own configuration sets the run up in its runner, as its global setup:
 * specs/setup/global-set-up.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { ConformanceReport } from '../../specs/report/model.ts';
import { type JsonResult, runSuite } from '../helpers/run-suite.ts';

/** A run of the suite with `env` that exits 1: its console output, every test result, and its report. */
async function stoppedRun(
  env: Record<string, string>,
): Promise<{ output: string; results: JsonResult[]; report: ConformanceReport }> {
  const run = await runSuite({ env, reporters: 'project', keep: true });
  try {
    expect(run.code).toBe(1);
    return {
      output: `${run.stdout}\n${run.stderr}`,
      results: run.specs.flatMap((s) => s.tests.flatMap((t) => t.results)),
      report: JSON.parse(
        readFileSync(path.join(run.reportDir, 'conformance.json'), 'utf8'),
      ) as ConformanceReport,
    };
  } finally {
    run.dispose();
  }
}

test('a profile file that does not exist → the run stops, saying so, and every rule is "not run" for that reason', async () => {
  const { output, report } = await stoppedRun({
    GATECHECK_PROFILE: path.join('/nonexistent', 'staging.profile.json'),
  });
  expect(output).toContain('staging.profile.json does not exist (ENOENT)');
  expect(output).not.toContain('no test in this suite version checks this rule yet');
  expect(output).toMatch(
    /not run: the run stopped before any test \(.*staging\.profile\.json does not exist/,
  );
  expect(report.rules.every((r) => r.verdict === 'not-run')).toBe(true);
});

test('a failed set-up stops the run before any test, with one line, and every rule is "not run" saying why', async () => {
  // A target without its profile: the set-up refuses before any request.
  const { output, results, report } = await stoppedRun({ BASE_URL: 'http://127.0.0.1:9' });
  expect(output).toContain('GATECHECK_PROFILE is required when BASE_URL is set');
  // One line: no stack frames of the set-up's code.
  expect(output).not.toMatch(/^\s+at /m);
  // No test ran, the set-up's included: no worker was started.
  expect(results).toEqual([]);
  expect(report.rules.every((r) => r.verdict === 'not-run')).toBe(true);
  expect(report.rules[0]?.reason).toContain(
    "not run: the run stopped before any test (the run's set-up failed: profile: GATECHECK_PROFILE is required",
  );
});
