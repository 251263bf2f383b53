/**
 * What the suite's checks project holds when the installed Playwright is outside the package's peer range
 * (shared/playwright-support.ts): one test that fails with the line naming both, in place of the checks,
 * which would fail each with an error that names neither (issue #40). Only a run that selects the suite's
 * checks meets it; the user's own projects run as always.
 */
import { installedPlaywrightLine } from '../../shared/playwright-support.ts';
import { baseTest } from '../lib/base-test.ts';

baseTest.test('gatecheck: the installed Playwright is supported', () => {
  const line = installedPlaywrightLine();
  if (line === undefined) return;
  const error = new Error(`gatecheck ${line}`);
  error.stack = error.message;
  throw error;
});
