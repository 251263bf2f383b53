/**
 * The report's account of what a run without the CLI selected (specs/report/run-filter.ts), read from
 * `playwright test`'s argv by the one reading of it (specs/setup/playwright-args.ts): filters with their values,
 * switches and file arguments, in order; no option's value taken for a file; nothing after `--`.
 */
import { expect, test } from '@playwright/test';
import { runFilterFromArgv } from '../../specs/report/run-filter.ts';

const CLI = ['node', 'cli.js', 'test'];

test('filters, switches and files are said in order; other options and their values are left out', () => {
  expect(
    runFilterFromArgv([
      ...CLI,
      '--workers',
      '2',
      '--project',
      'e2e',
      '--grep=@rule:x',
      '-u',
      'tests/a.spec.ts',
      '-c',
      'pw.config.ts',
      '--last-failed',
      '-Gslow',
    ]),
  ).toBe('--project e2e --grep @rule:x tests/a.spec.ts --last-failed -G slow');
});

test('no selection, another command, a worker, or arguments after `--`: nothing to say', () => {
  expect(runFilterFromArgv([...CLI, '--workers=2', '--reporter', 'dot'])).toBeUndefined();
  expect(runFilterFromArgv(['node', 'cli.js', 'show-report', 'reports'])).toBeUndefined();
  expect(runFilterFromArgv(['node', 'workerProcessEntry.js'])).toBeUndefined();
  expect(runFilterFromArgv([...CLI, '--', '--grep', 'x'])).toBeUndefined();
});
