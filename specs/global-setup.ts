/**
 * Global setup of the conformance run: validates the profile before any request (a bad profile stops
 * the run with one line naming the field), then either points the run at BASE_URL or starts the
 * bundled mock in-process on a free port. Workers inherit the environment set here, so BASE_URL and
 * GATECHECK_PROFILE are how they learn the target. The returned function is the global teardown.
 */
import type { FullConfig } from '@playwright/test';
import { seedLine } from './fuzz/engine/seed-line.ts';
import { ENV, ENV_EMBEDDED } from './lib/env.ts';
import { checkJwtMaterial } from './lib/tokens.ts';
import { resolveRunTarget } from './profile/resolve.ts';

export default async function globalSetup(config: FullConfig): Promise<(() => Promise<void>) | undefined> {
  const run = resolveRunTarget(process.env);
  await checkJwtMaterial(run.profile.jwt);
  process.env[ENV.profile] = run.profilePath;
  // Once per run, here rather than in each worker (docs/fuzzing.md: the seed is printed at the start of the run).
  process.stdout.write(seedLine(run.profile, config.workers));
  if (run.baseUrl) {
    process.env[ENV.baseUrl] = run.baseUrl;
    delete process.env[ENV_EMBEDDED];
    return undefined;
  }
  const { startMock } = await import('../mock/server.ts');
  const mock = await startMock({ port: 0, host: '127.0.0.1' });
  process.env[ENV.baseUrl] = mock.url;
  process.env[ENV_EMBEDDED] = '1';
  return async () => {
    await mock.close();
  };
}
