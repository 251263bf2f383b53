/**
 * The run's set-up in gatecheck's own configuration (playwright.config.ts), as its global setup: there every
 * test is the suite's, so the set-up needs no setup project to wait for a selected check (issue #40 is about a
 * user's project, where gatecheckProjects() keeps one: specs/project/gatecheck-project.ts). It runs in the
 * runner before any worker starts, as the setup project's request did, so the workers still inherit what
 * Node reads at start (NODE_EXTRA_CA_CERTS). It spares a run the setup project's worker: ≈ 0.5 CPU-s, and the
 * ≈ 0.7 s that worker's start took before the checks' workers could start (docs/performance.md "#36, eleventh
 * pass"). A failed set-up stops the run with its one line, before any test; the conformance report says every
 * rule was not run, and why (specs/report/build.ts).
 */
import type { FullConfig } from '@playwright/test';
import { setUpInRunner, setUpRequestOf } from './run-host.ts';

export default async function globalSetUp(config: FullConfig): Promise<void> {
  await setUpInRunner(setUpRequestOf(config));
}
