/**
 * gatecheck's own configuration (playwright.config.ts) sets the run up in its runner, as its global setup
 * (specs/setup/global-set-up.ts): no setup project, so no worker of its own before the checks' workers. A
 * user's project keeps gatecheckProjects()' setup project (tests/package/guest-project.test.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { ConformanceReport } from '../../specs/report/model.ts';
import { runSuite, specsOf } from '../helpers/run-suite.ts';

const SET_UP_FILE = /(^|[\\/])setup[\\/]run\.setup\.[jt]s$/;

test('a run of the suite has no set-up test: the bundled mock is set up before the checks, which pass', async () => {
  const run = await runSuite({ args: ['--grep', '@rule:auth\\.401\\.missing'] });
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.specs.filter((s) => SET_UP_FILE.test(s.file))).toEqual([]);
  const checks = specsOf(run, 'auth.401.missing');
  expect(checks.length).toBeGreaterThan(0);
  expect(checks.flatMap((s) => s.tests.map((t) => t.status))).not.toContain('unexpected');
});

test('a failed set-up stops the run before any test, with one line, and every rule is "not run" saying why', async () => {
  const run = await runSuite({
    // A target without its profile: the set-up refuses before any request.
    env: { BASE_URL: 'http://127.0.0.1:9' },
    reporters: 'project',
    keep: true,
  });
  try {
    expect(run.code).toBe(1);
    const output = `${run.stdout}\n${run.stderr}`;
    expect(output).toContain('GATECHECK_PROFILE is required when BASE_URL is set');
    // One line: no stack frames of the set-up's code.
    expect(output).not.toMatch(/^\s+at /m);
    // No test ran, the set-up's included: no worker was started.
    expect(run.specs.flatMap((s) => s.tests.flatMap((t) => t.results))).toEqual([]);
    const report = JSON.parse(
      readFileSync(path.join(run.reportDir, 'conformance.json'), 'utf8'),
    ) as ConformanceReport;
    expect(report.rules.every((r) => r.verdict === 'not-run')).toBe(true);
    expect(report.rules[0]?.reason).toContain(
      "not run: the run stopped before any test (the run's set-up failed: profile: GATECHECK_PROFILE is required",
    );
  } finally {
    run.dispose();
  }
});
