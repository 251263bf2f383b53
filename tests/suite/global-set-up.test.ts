/**
 * gatecheck's own configuration (playwright.config.ts) sets the run up in its runner, as its global setup
 * (specs/setup/global-set-up.ts): no setup project, so no worker of its own before the checks' workers. A
 * user's project keeps gatecheckProjects()' setup project (tests/package/guest-project.test.ts). A failed
 * set-up: tests/report/stopped-run.test.ts.
 */
import { expect, test } from '@playwright/test';
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
