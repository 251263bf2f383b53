/**
 * The fuzz specs' worker fixture: one `fuzz` environment per worker — run settings (seed, cases, in-flight
 * cap), the JWT kit, a keep-alive node:http client and the raw-socket client, each going through the run's
 * scheduler and the observers. Declared with the suite's other fixtures (specs/kit/fixtures.ts), so conformance
 * and fuzz tests share one fixture set and so one pair of workers: Playwright starts a fresh worker for a
 * test whose fixtures differ from the worker's (docs/performance.md "The default run"). Worker fixtures are
 * set up on first use, so a worker that runs no fuzz test never builds this one.
 */
import { withFetchedTokens } from '../credentials/with-tokens.ts';
import { createNodeHttpClient } from '../fuzz/clients/node-http.ts';
import { createRawSocketClient } from '../fuzz/clients/raw-socket.ts';
import { type ObserveOutcome, scheduledClient } from '../fuzz/clients/scheduled.ts';
import type { PlanEnvironment } from '../fuzz/engine/run-plan.ts';
import { type FuzzSettings, fuzzSettings } from '../fuzz/engine/settings.ts';
import { createJwtKit, isKitUnavailable } from '../fuzz/jwt/kit.ts';
import { rememberSecrets } from '../lib/secrets.ts';
import { nodeTlsOptions, runTls } from '../lib/tls.ts';
import { observeOutcome, observerFor } from '../observe/observer.ts';
import type { Profile } from '../profile/types.ts';
import { type Scheduler, schedulerFor } from '../run/scheduler.ts';
import { baseUrlOf, type RunTargetOption, runEnv } from '../run-target.ts';

export interface FuzzWorker {
  /** As the worker started. */
  readonly env: PlanEnvironment;
  /** As of now: fresh run-time tokens and JWT kit (what a plan runs with). */
  readonly current: () => Promise<PlanEnvironment>;
  readonly scheduler: Scheduler;
  readonly settings: FuzzSettings;
  /** The observers' hook for this target's answers (specs/observe/). */
  readonly observe: ObserveOutcome;
}

export const fuzzWorkerFixture: [
  (
    args: { runTarget: RunTargetOption; profile: Profile },
    use: (fuzz: FuzzWorker) => Promise<void>,
    workerInfo: { config: { workers: number } },
  ) => Promise<void>,
  { scope: 'worker' },
] = [
  async ({ runTarget, profile }, use, workerInfo) => {
    const env = runEnv(runTarget);
    const baseUrl = baseUrlOf(env, profile);
    const tls = nodeTlsOptions(runTls(profile, env));
    const settings = fuzzSettings(profile, workerInfo.config.workers, env);
    const http = createNodeHttpClient({
      timeoutMs: settings.timeoutMs,
      maxSockets: settings.concurrency,
      tls,
    });
    const raw = createRawSocketClient({ timeoutMs: settings.timeoutMs, tls });
    const scheduler = schedulerFor(profile, baseUrl, settings.concurrency, env);
    const observe = observeOutcome(observerFor(profile, baseUrl));
    const clients = {
      http: scheduledClient(http, scheduler, observe),
      raw: scheduledClient(raw, scheduler, observe),
    };
    // Per plan, not per worker: the valid token obtained at run time is the current one (specs/credentials),
    // and the kit's tokens and time claims count from when the plan starts, however long the worker lives.
    const current = async (): Promise<PlanEnvironment> => {
      const fuzzProfile = await withFetchedTokens(profile, env);
      const kit = createJwtKit(fuzzProfile);
      if (!isKitUnavailable(kit)) rememberSecrets(kit.secrets);
      return { profile: fuzzProfile, baseUrl, settings, kit, clients };
    };
    await use({ env: await current(), current, scheduler, settings, observe });
    http.close();
  },
  { scope: 'worker' },
];
