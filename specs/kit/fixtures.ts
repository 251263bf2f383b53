/**
 * The suite's one fixtures entry (Playwright idiom): `test` and `expect` for every conformance spec.
 *
 * Worker-scoped: `profile` (validated, from GATECHECK_PROFILE or the bundled mock's), `target` (the HTTP
 * client for BASE_URL inside the profile's budget, specs/wire/http.ts), `mint` (jose tokens from profile.jwt), `fuzz`
 * (the fuzz specs' clients, specs/kit/fuzz-worker.ts). One fixture set for every spec, fuzz included: Playwright
 * gives tests with other fixtures other workers, and a worker's start costs about a second of CPU.
 * Test-scoped: `kit`, the three together with the questions checks ask of them.
 *
 * Built on `runTargetTest` (specs/run-target.ts: `runTarget` and `profile` on `_baseTest`, the test type
 * `@playwright/test` declares without its browser fixtures): no check drives a browser, and the browser
 * `test` set up and tore down ≈ 36 context-option fixtures around every test, ≈ 0.7 s of the default run
 * (docs/performance.md; tests/suite/fixture-steps.test.ts keeps it so).
 *
 * A test of a rule is declared `test(title, forRule(rule), body)`: the title says stimulus → expectation,
 * forRule adds tags `@must`/`@should`/`@info` and `@rule:<id>` and annotations `rule` and one `ref` per
 * reference (specs/rules/types.ts). The level's consequence lives in the verifiers (specs/verdict/verify.ts):
 * a SHOULD violation passes with a `warning` annotation unless GATECHECK_STRICT=1, an INFO check never
 * fails on what the target does.
 */
import { expect } from '@playwright/test';
import { refreshedAuthorization } from '../credentials/client.ts';
import { Budget, DEFAULT_TIMEOUT_MS } from '../lib/budget.ts';
import { nodeTlsOptions, runTls } from '../lib/tls.ts';
import { TokenMint } from '../lib/tokens.ts';
import { observationsFlush, observerFor, seenOf } from '../observe/observer.ts';
import type { Profile } from '../profile/types.ts';
import { schedulerFor } from '../run/scheduler.ts';
import type { TestClock } from '../run/test-clock.ts';
import { testClockFixture } from '../run/test-clock-fixture.ts';
import {
  baseUrlOf,
  type RunTargetFixtures,
  type RunTargetOption,
  runEnv,
  runTargetTest,
} from '../run-target.ts';
import { type Exchange, Target } from '../wire/http.ts';
import { type FuzzWorker, fuzzWorkerFixture } from './fuzz-worker.ts';
import { Kit } from './kit.ts';

export interface GateWorkerFixtures {
  runTarget: RunTargetOption;
  profile: Profile;
  target: Target;
  mint: TokenMint | undefined;
  /** The fuzz specs' settings, kit and clients (specs/kit/fuzz-worker.ts); built only in a worker that fuzzes. */
  fuzz: FuzzWorker;
}

export interface GateTestFixtures {
  kit: Kit;
  /** Automatic: writes what the observers saw after each test (specs/observe/). */
  observations: undefined;
  /** Automatic: the test's own time; waits for the target's limit extend it (specs/run/test-clock.ts). */
  clock: TestClock;
}

/** What the checks add to a worker's target and profile. */
type CheckWorkerFixtures = Omit<GateWorkerFixtures, keyof RunTargetFixtures>;

export const test = runTargetTest.extend<GateTestFixtures, CheckWorkerFixtures>({
  target: [
    async ({ runTarget, profile }, use, workerInfo) => {
      const baseUrl = baseUrlOf(runEnv(runTarget), profile);
      const timeoutMs = profile.budget?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      // A private CA reaches Node through NODE_EXTRA_CA_CERTS too, set by global setup before the workers start.
      const tls = runTls(profile, runEnv(runTarget));
      const budget = Budget.forWorker(profile.budget, workerInfo.config.workers);
      const scheduler = schedulerFor(profile, baseUrl, budget.concurrency);
      const observer = observerFor(profile, baseUrl);
      const observe = (ex: Exchange) => observer.observe(seenOf(ex));
      await use(
        new Target({
          baseUrl,
          budget,
          scheduler,
          timeoutMs,
          tls: nodeTlsOptions(tls),
          observe,
          refreshAuthorization: (value) => refreshedAuthorization(value),
        }),
      );
    },
    { scope: 'worker' },
  ],
  mint: [
    async ({ profile }, use) => {
      await use(profile.jwt ? await TokenMint.create(profile.jwt) : undefined);
    },
    { scope: 'worker' },
  ],
  fuzz: fuzzWorkerFixture,
  observations: observationsFlush,
  clock: testClockFixture,
  kit: async ({ profile, target, mint }, use) => {
    await use(new Kit(profile, target, mint));
  },
});

export { forRule, LEVEL_TAG } from '../rules/tags.ts';
export { expect };
