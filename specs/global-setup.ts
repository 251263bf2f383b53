/**
 * Global setup of the conformance run: validates the profile before any request (a bad profile stops
 * the run with one line naming the field), starts the run's scheduler (specs/run/: one pace, one pause and
 * one budget for every worker), then either points the run at BASE_URL or starts the bundled mock in-process
 * on a free port. Workers inherit the environment set here, so BASE_URL, GATECHECK_PROFILE and the
 * scheduler's address are how they learn the target. The returned function is the global teardown.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { ENV, ENV_EMBEDDED } from './lib/env.ts';
import { checkJwtMaterial } from './lib/tokens.ts';
import { OBSERVATIONS_ENV } from './observe/store.ts';
import { resolveRunTarget } from './profile/resolve.ts';
import { RunCoordinator } from './run/coordinator.ts';
import { startCoordinatorServer } from './run/coordinator-server.ts';
import { storePoliteness } from './run/politeness-store.ts';
import { SCHEDULER_ENV } from './run/port.ts';

export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  const run = resolveRunTarget(process.env);
  await checkJwtMaterial(run.profile.jwt);
  process.env[ENV.profile] = run.profilePath;
  // The observers' store (specs/observe/store.ts): one folder per run, removed with the run.
  const observations = await mkdtemp(join(tmpdir(), 'gatecheck-observations-'));
  process.env[OBSERVATIONS_ENV] = observations;
  const coordinator = new RunCoordinator();
  const scheduler = await startCoordinatorServer(coordinator);
  process.env[SCHEDULER_ENV] = scheduler.address;
  const stopScheduler = async () => {
    storePoliteness(coordinator.politeness());
    await scheduler.close();
    await rm(observations, { recursive: true, force: true });
  };
  if (run.baseUrl) {
    process.env[ENV.baseUrl] = run.baseUrl;
    delete process.env[ENV_EMBEDDED];
    return stopScheduler;
  }
  const { startMock } = await import('../mock/server.ts');
  const mock = await startMock({ port: 0, host: '127.0.0.1' });
  process.env[ENV.baseUrl] = mock.url;
  process.env[ENV_EMBEDDED] = '1';
  return async () => {
    await stopScheduler();
    await mock.close();
  };
}
