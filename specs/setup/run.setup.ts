/**
 * The suite's setup project (specs/project/gatecheck-project.ts, playwright.config.ts): one test, which
 * Playwright runs only when a project depending on it has a selected test — then asks the runner to set
 * the run up (specs/setup/run-host.ts). Its failure (a bad profile, a variable not set, a token endpoint that
 * refuses) is one failed test with one line, and none of the suite's checks runs. Once set up, it names the
 * interface the run judges (issue #66) in annotations, which Playwright's JUnit reporter writes as properties:
 * a JUnit reader sees the class the target was judged as and its declared deviations from the seed.
 */
import { classLabel } from '../declaration/class-label.ts';
import { declarationOf } from '../declaration/declaration.ts';
import { deviationsOf } from '../declaration/deviations.ts';
import { baseTest } from '../lib/base-test.ts';
import { setUpProfileFromHost } from '../run/host-socket.ts';
import { askForSetUp, setUpRequestOf } from './run-host.ts';

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a test asks for from this pattern; it asks for none.
baseTest.test('gatecheck: profile, target and run services', async ({}, testInfo) => {
  await askForSetUp(setUpRequestOf(testInfo.config));
  const profile = await setUpProfileFromHost();
  if (profile === undefined) return;
  testInfo.annotations.push({ type: 'gatecheck.class', description: classLabel(declarationOf(profile)) });
  for (const deviation of deviationsOf(profile))
    testInfo.annotations.push({ type: 'gatecheck.deviation', description: deviation.text });
});
