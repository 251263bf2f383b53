/**
 * The child run of the mutation test (tests/mutation/score.test.ts): the conformance suite, unchanged, once
 * per target of the manifest — one project per target (`conformant`, `alg-none`, `post-201`, …), pointed at
 * that target's mock, profile and fuzz budget through the suite's `runTarget` option (specs/kit/fixtures.ts:
 * the same fixtures read it before BASE_URL, GATECHECK_PROFILE, GATECHECK_BUDGET). Each project runs the files
 * that load the spec files (scripts/carriers/). No --grep: every check of the loaded specs runs against every
 * defect, so a defect that breaks more than it claims shows. The self-tests run it compiled, with the suite
 * (tests/setup/compile-suite.ts): its runner and workers load no TypeScript.
 */
import { defineConfig } from '@playwright/test';
import { CARRIERS } from '../../scripts/carriers/write.ts';
import { CODE_ROOT, MODULE_EXT } from '../../shared/paths.ts';
import type { RunTargetOption } from '../../specs/run-target.ts';
import { OBSERVERS_SUFFIX, readManifest, rulesGrep } from './harness/manifest.ts';

const { targets, suiteDir, skipFuzz } = readManifest();

export default defineConfig<object, { runTarget: RunTargetOption }>({
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  fullyParallel: false,
  // JSON for the verdicts (harness/run.ts), and a progress line per finished target on stdout.
  reporter: [['json'], [`${CODE_ROOT}/tests/mutation/harness/progress-reporter${MODULE_EXT}`]],
  use: { trace: 'off' },
  projects: targets.flatMap((target) => {
    const use = { runTarget: { baseUrl: target.url, profile: target.profile, budget: target.budget } };
    // Only the checks of the rules the target is meant to break, when the run names them (score.test.ts).
    const grep = rulesGrep(target.rules);
    const only = grep === undefined ? {} : { grep };
    return [
      {
        name: target.name,
        // One carrier file per spec file (scripts/carriers/): a worker loads only the carriers of
        // the checks its project selects. Stated in docs/defects.md: the fuzz specs (fuzz.*, jwt.attack.* rules)
        // run only for the conformant mock and the targets whose defect one of those rules is meant to catch.
        // Nothing else is filtered.
        testDir: suiteDir,
        use,
        ...only,
        testMatch: skipFuzz.includes(target.name)
          ? CARRIERS.conformance
          : [CARRIERS.conformance, CARRIERS.fuzz],
        // A target's files in one worker, one after the other (the other worker takes the next target): a second
        // worker for the same target would load the suite and build its fixtures again, ≈ 2 s of CPU each
        // (testProject.workers, Playwright ≥ 1.52).
        workers: 1,
        // The observer verdicts over every answer the target's checks received, after them, failures or not.
        teardown: `${target.name}${OBSERVERS_SUFFIX}`,
      },
      {
        name: `${target.name}${OBSERVERS_SUFFIX}`,
        testDir: suiteDir,
        use,
        ...only,
        testMatch: CARRIERS.observers,
      },
    ];
  }),
});
