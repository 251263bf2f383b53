/**
 * One Playwright run of the conformance suite over several corpus documents (run.ts): per document a pair of
 * projects, as gatecheckProjects({ name, target }) makes them (specs/project/gatecheck-project.ts) — its
 * checks and their teardown, the observer verdicts — pointed at that document's mock, profile and printed
 * credentials through the suite's `runTarget` option (specs/run-target.ts), as the mutation run points one
 * project at each defective mock (tests/mutation/mutation.config.ts). No setup project: the run's set-up
 * (specs/setup/set-up.ts) sets up one target, from the environment; run.ts hosts what it would — the scheduler
 * (one state per target), the observations folder (one folder per target) and the token broker (one profile's:
 * one such document per run). One runner and one loading of the spec files for every document,
 * where one `gatecheck` run each cost a Node start, the CLI, a runner and a setup worker (≈ 4 CPU-s each).
 */
import { defineConfig } from '@playwright/test';
import { CODE_ROOT, MODULE_EXT } from '../../shared/paths.ts';
import type { RunTargetOption } from '../../specs/run-target.ts';
import { playwrightGrep } from '../../specs/setup/playwright-grep.ts';
import { CARRIERS } from '../carriers/write.ts';
import { OBSERVERS_SUFFIX, readManifest } from './manifest.ts';

const { targets, carriers } = readManifest();

export default defineConfig<object, { runTarget: RunTargetOption }>({
  // The spec files through their carriers (run.ts writes them): a failed check keeps its worker.
  testDir: carriers,
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  fullyParallel: true,
  // The documents' reports (report.ts), and each failure's message on stdout as it happens: a run.ts error
  // quotes the output's end, which then names the failure (the dot reporter says only "F" until the end).
  reporter: [[`${CODE_ROOT}/scripts/stand-in-corpus/report${MODULE_EXT}`], ['line']],
  projects: targets.flatMap((target) => {
    const use = {
      baseURL: target.url,
      trace: 'off' as const,
      runTarget: { baseUrl: target.url, profile: target.profile, budget: target.budget, env: target.env },
    };
    const observers = `${target.name}${OBSERVERS_SUFFIX}`;
    return [
      // The document's checks in one worker, as `gatecheck … -- --workers=1` ran them (testProject.workers,
      // Playwright ≥ 1.52): the other workers take the other documents.
      {
        name: target.name,
        testMatch: [CARRIERS.conformance, CARRIERS.fuzz],
        use,
        workers: 1,
        teardown: observers,
      },
      // The observer verdicts over every answer the document's checks received, after them, failures or not.
      // Milliseconds over stored tallies: one worker, not one per core (as in playwright.config.ts).
      // The run's --grep (`--only @must`) selects among them as among the checks (specs/setup/playwright-grep.ts).
      { name: observers, testMatch: CARRIERS.observers, use, fullyParallel: false, ...playwrightGrep() },
    ];
  }),
});
