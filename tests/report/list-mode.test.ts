/**
 * `playwright test --list` runs nothing, so it must leave the last run's reports alone: no conformance.*,
 * no junit.xml, no Playwright HTML report written over them.
 */

import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { FullResult, Suite } from '@playwright/test/reporter';
import { isListing } from '../../specs/report/reporter.ts';
import { cleanEnv, PLAYWRIGHT_CLI, ROOT, runNode } from './synthetic.ts';

test('npx playwright test --list writes no report over the last run', async () => {
  const reportDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-list-'));
  try {
    const earlier = path.join(reportDir, 'conformance.json');
    await writeFile(earlier, '{"the":"last real run"}\n');
    const listed = await runNode(
      [PLAYWRIGHT_CLI, 'test', '--config', path.join(ROOT, 'playwright.config.ts'), '--list'],
      ROOT,
      cleanEnv({ GATECHECK_REPORT_DIR: reportDir }),
    );
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/Total: \d+ tests? in \d+ files?/);
    expect(await readFile(earlier, 'utf8')).toBe('{"the":"last real run"}\n');
    for (const name of ['conformance.html', 'summary.md', 'junit.xml', 'playwright-html']) {
      expect(existsSync(path.join(reportDir, name)), `${name} written by --list`).toBe(false);
    }
  } finally {
    await rm(reportDir, { recursive: true, force: true });
  }
});

test('list mode seen through the public API: tests collected, none with a result, status passed', () => {
  const suite = (results: number[]) =>
    ({ allTests: () => results.map((n) => ({ results: Array.from({ length: n }) })) }) as unknown as Suite;
  const passed = { status: 'passed' } as FullResult;
  expect(isListing('list', undefined, passed)).toBe(true);
  expect(isListing(undefined, suite([0, 0]), passed)).toBe(true);
  // A real run gives every test a result, skipped ones included.
  expect(isListing(undefined, suite([1, 1]), passed)).toBe(false);
  // Interrupted before any test ran: a report saying so is still written.
  expect(isListing(undefined, suite([0, 0]), { status: 'interrupted' } as FullResult)).toBe(false);
  expect(isListing('test', suite([]), passed)).toBe(false);
});
