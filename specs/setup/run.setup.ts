/**
 * The suite's setup project (specs/project/gatecheck-project.ts, playwright.config.ts): one test, which
 * Playwright runs only when a project depending on it has a selected test — then asks the runner to set
 * the run up (specs/setup/run-host.ts). Its failure (a bad profile, a variable not set, a token endpoint that
 * refuses) is one failed test with one line, and none of the suite's checks runs.
 */
import { baseTest } from '../lib/base-test.ts';
import { askForSetUp, setUpRequestOf } from './run-host.ts';

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a test asks for from this pattern; it asks for none.
baseTest.test('gatecheck: profile, target and run services', async ({}, testInfo) => {
  await askForSetUp(setUpRequestOf(testInfo.config));
});
