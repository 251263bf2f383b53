/**
 * A run that stops before any test — here its profile file does not exist, as when docs/package.md's config
 * snippet is run as written — says so: the console and the report name the missing file, and the rules
 * are "not run" because the run stopped, never "no test in this suite version checks this rule yet".
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { ConformanceReport } from '../../specs/report/model.ts';
import { runSuite } from '../helpers/run-suite.ts';

test('a profile file that does not exist → the run stops, saying so, and every rule is "not run" for that reason', async () => {
  const run = await runSuite({
    env: { GATECHECK_PROFILE: path.join('/nonexistent', 'staging.profile.json') },
    reporters: 'project',
    keep: true,
  });
  try {
    expect(run.code).toBe(1);
    const output = `${run.stdout}\n${run.stderr}`;
    expect(output).toContain('staging.profile.json does not exist (ENOENT)');
    expect(output).not.toContain('no test in this suite version checks this rule yet');
    expect(output).toMatch(
      /not run: the run stopped before any test \(.*staging\.profile\.json does not exist/,
    );
    const report = JSON.parse(
      readFileSync(path.join(run.reportDir, 'conformance.json'), 'utf8'),
    ) as ConformanceReport;
    expect(report.rules.every((r) => r.verdict === 'not-run')).toBe(true);
  } finally {
    run.dispose();
  }
});
