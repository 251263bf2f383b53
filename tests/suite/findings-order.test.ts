/**
 * Findings worst first, each with its remedy (issue #66): a target with an access bypass (an API key's prefix
 * accepted), a leak (a refusal carrying the resource), a status rule broken (two Host lines served) and a legal
 * spelling refused (two spaces after the scheme word) — four mock defects at once. The report, summary.md and the
 * console list them by impact, not by rule id.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXIT } from '../../cli/exit-codes.ts';
import type { ConformanceReport } from '../../specs/report/model.ts';
import { MOCK_PROFILE, type Scratch, scratch } from '../cli/cli.ts';
import { mockForTests } from '../helpers/mock-for-tests.ts';

test.describe.configure({ timeout: 240_000 });

const mock = mockForTests({
  host: '127.0.0.1',
  defects: ['apikey-accepts-prefix', 'refusal-carries-resource', 'host-first-wins', 'scheme-single-space'],
});
let s: Scratch;
test.beforeEach(async () => {
  s = await scratch();
});
test.afterEach(async () => s.dispose());

test('four defects of four impacts: findings in impact order, each with what to change', async () => {
  const rules = [
    'auth.scheme.separator-spaces',
    'request.400.host-field',
    'refusal.no-resource',
    'auth.boundary.prefix',
  ];
  const run = await s.gatecheck([
    '--base-url',
    mock.url,
    '--profile',
    MOCK_PROFILE,
    '--only',
    rules.join(','),
  ]);
  expect(run.code, run.stdout + run.stderr).toBe(EXIT.nonConformant);
  const report = JSON.parse(
    await readFile(path.join(s.dir, 'reports/conformance.json'), 'utf8'),
  ) as ConformanceReport;
  expect(report.findings?.map((f) => [f.impact, f.rule])).toEqual([
    ['access', 'auth.boundary.prefix'],
    ['leak', 'refusal.no-resource'],
    ['status', 'request.400.host-field'],
    ['refusal', 'auth.scheme.separator-spaces'],
  ]);
  const summary = await readFile(path.join(s.dir, 'reports/summary.md'), 'utf8');
  const order = [
    'auth.boundary.prefix',
    'refusal.no-resource',
    'request.400.host-field',
    'auth.scheme.separator-spaces',
  ].map((id) => summary.indexOf(`| \`${id}\``));
  expect(
    order.every((at, i) => at > 0 && (i === 0 || at > (order[i - 1] ?? 0))),
    summary,
  ).toBe(true);
  expect(summary).toContain('| access granted without valid credentials | `auth.boundary.prefix`');
  expect(summary).toContain('Compare the whole secret (constant-time, full length), never a prefix of it.');
  expect(run.stdout).toMatch(
    /Failing rules, worst impact first:\n access granted without valid credentials:\n {2}✘ auth\.boundary\.prefix/,
  );
  expect(run.stdout).toContain('fix: Split the field value at the first run of spaces (1*SP)');
});
