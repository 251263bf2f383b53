/**
 * The run's set-up, in the runner process, asked for by the suite's setup project (specs/setup/run-host.ts) —
 * so only a run that selected one of the suite's checks does it: validates the profile before any request
 * (a bad profile stops the suite with one line naming the field), starts the run's scheduler (specs/run/: one
 * pace, one pause and one budget for every worker), then either points the run at BASE_URL or starts the
 * bundled mock in-process on a free port. What it makes for the workers — BASE_URL and GATECHECK_PROFILE
 * (the target), the scheduler's address and the token broker's (specs/credentials/broker.ts) — it returns, and
 * the runner's host hands it to the suite's own workers when they ask (specs/run/host-socket.ts): none of it
 * goes into the runner's environment, which every worker of the user's own projects inherits (issue #40).
 * Only NODE_EXTRA_CA_CERTS (a private CA) does, since Node reads it when a process starts. `close` is the
 * run's teardown.
 */
import { ENV, ENV_EMBEDDED } from '../../shared/env.ts';
import { tempFolder } from '../../shared/temp-folder.ts';
import { startPrimedBroker, tokenSources } from '../credentials/broker.ts';
import { seedLine } from '../fuzz/engine/seed-line.ts';
import { DEFAULT_TIMEOUT_MS } from '../lib/budget.ts';
import { progressStream, type ReporterEntry } from '../lib/progress-stream.ts';
import { rememberSecrets } from '../lib/secrets.ts';
import { checkTlsFiles, extraCaBundle, INSECURE_WARNING, nodeTlsOptions, runTls } from '../lib/tls.ts';
import { checkJwtMaterial } from '../lib/tokens.ts';
import { PROFILE_CHECKED_ENV } from '../profile/load.ts';
import { resolveRunTarget } from '../profile/resolve.ts';
import type { Profile } from '../profile/types.ts';
import { RunCoordinator } from '../run/coordinator.ts';
import { startCoordinatorServer } from '../run/coordinator-server.ts';
import { OBSERVATIONS_ENV } from '../run/observation-store.ts';
import type { OverDeclared } from '../run/politeness.ts';
import { storePoliteness } from '../run/politeness-store.ts';
import { SCHEDULER_ENV } from '../run/port.ts';
import { estimateRun, type KeptLimit, plannedFuzzCases, revisedEstimateLine } from './estimate.ts';
import { expectTargetAnswers } from './target-answers.ts';

/** What of the run's configuration the set-up reads (the setup test's `testInfo.config`). */
export interface SetUpRequest {
  readonly workers: number;
  readonly reporters: readonly ReporterEntry[];
}

/** The set-up's teardown, and what it hands the suite's workers: the variables it made, the profile it resolved. */
export interface SetUpResult {
  readonly close: () => Promise<void>;
  readonly env: Readonly<Record<string, string>>;
  /** Resolved once here, for the run's target: a worker of that target takes it as it is (specs/run-target.ts). */
  readonly profile: Profile;
}

/** Sets the run up in this (the runner) process; resolves its teardown. Throws ProfileError, TokenError. */
export async function setUpRun(config: SetUpRequest): Promise<SetUpResult> {
  const run = resolveRunTarget(process.env);
  await checkJwtMaterial(run.profile.jwt);
  const tls = runTls(run.profile, process.env);
  checkTlsFiles(tls);
  if (tls.insecure) process.stderr.write(`${INSECURE_WARNING}\n`);
  // Node reads NODE_EXTRA_CA_CERTS when a process starts: set now, every worker trusts the private CA, beside any extra CAs the environment already named.
  const caBundle = tls.caPath ? await extraCaBundle(tls.caPath, process.env.NODE_EXTRA_CA_CERTS) : undefined;
  if (caBundle) process.env.NODE_EXTRA_CA_CERTS = caBundle.path;
  const env: Record<string, string> = {};
  env[ENV.profile] = run.profilePath;
  // The workers read the same file: what was validated here is not validated again (≈0.2 s of CPU each).
  env[PROFILE_CHECKED_ENV] = run.profileDigest;
  // Once per run, here rather than in each worker (docs/fuzzing.md: the seed is printed at the start of the run).
  // On stderr when a reporter prints its document on stdout (`--reporter=json > out.json` stays JSON).
  const progress = progressStream(config.reporters);
  progress.write(seedLine(run.profile, config.workers));

  // The observers' store (specs/run/observation-store.ts): one folder per run, removed with the run, or when
  // the runner exits if no gatecheck reporter tears the run down (shared/temp-folder.ts).
  const observations = await tempFolder('gatecheck-observations-');
  env[OBSERVATIONS_ENV] = observations.path;
  const coordinator = new RunCoordinator(Date.now, {
    learn: process.env[ENV.schedulerLearning] !== 'off',
    onOverDeclared: reviseEstimate(run.profile, (line) => progress.write(line)),
  });
  const scheduler = await startCoordinatorServer(coordinator);
  env[SCHEDULER_ENV] = scheduler.address;
  const teardown: (() => Promise<void>)[] = [
    async () => {
      storePoliteness(coordinator.politeness());
      await scheduler.close();
      await observations.remove();
    },
  ];
  if (caBundle) teardown.push(caBundle.remove);
  const close = async () => {
    for (const step of teardown) await step();
  };

  let baseUrl = run.baseUrl;
  if (baseUrl) {
    // The CLI asked the target before starting Playwright; a user's own config has not.
    if (process.env[ENV.cli] !== '1')
      await expectTargetAnswers(run.profile, baseUrl).catch(async (error: unknown) => {
        await close();
        throw error;
      });
    env[ENV.baseUrl] = baseUrl;
    delete process.env[ENV_EMBEDDED];
  } else {
    const { startMock } = await import('../../mock/server.ts');
    const mock = await startMock({ port: 0, host: '127.0.0.1' });
    baseUrl = mock.url;
    env[ENV.baseUrl] = mock.url;
    env[ENV_EMBEDDED] = '1';
    teardown.unshift(() => mock.close());
  }

  // Tokens obtained at run time: one broker per run, here unless the CLI already hosts one.
  if (tokenSources(run.profile).length > 0 && !process.env[ENV.tokenBroker]) {
    const broker = await startPrimedBroker({
      profile: run.profile,
      baseUrl,
      tls: nodeTlsOptions(tls),
      timeoutMs: run.profile.budget?.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    }).catch(async (error: unknown) => {
      await close();
      throw error;
    });
    rememberSecrets(broker.issued());
    Object.assign(env, broker.env);
    // Left open (unref'd) so the reporter can still ask it which tokens to redact when the run ends.
  }
  return { close, env, profile: run.profile };
}

/**
 * What the run says when it sees the target keep a declared limit lower than declared (#38: the estimate reads
 * the declared limit, and a run against a lower one takes longer): the revised wall time, from the run's start,
 * for the fuzz cases the run plans (GATECHECK_BUDGET, else the profile's, else the default).
 */
function reviseEstimate(profile: Profile, write: (line: string) => void) {
  const budgetText = process.env[ENV.budget]?.trim() ?? '';
  const cases = plannedFuzzCases(profile, /^\d+$/.test(budgetText) ? Number(budgetText) : undefined);
  const planned = estimateRun(profile, cases);
  // Each limit's latest reading, by its place in the list.
  const kept = new Map<number, number>();
  return (index: number, seen: OverDeclared): void => {
    kept.set(index, seen.requests);
    const limits: KeptLimit[] = [...kept].map(([i, limit]) => ({ index: i, limit }));
    const revised = estimateRun(profile, cases, limits);
    if (revised !== undefined) write(`${revisedEstimateLine(seen, revised, planned)}\n`);
  };
}
