/**
 * Which target a worker checks: the project's `runTarget` option over the process's environment, resolved
 * and validated as global setup resolves it (specs/profile/resolve.ts). Shared by the suite's fixtures
 * (specs/kit/fixtures.ts), the fuzz worker (specs/kit/fuzz-worker.ts) and the observer verdicts, whose test type is
 * `runTargetTest` alone: their worker loads no HTTP client, token minting or fuzz engine it would not use.
 */

import { ENV } from '../shared/env.ts';
import { profileSecrets } from '../shared/secrets.ts';
import { baseTest } from './lib/base-test.ts';
import { rememberSecrets } from './lib/secrets.ts';
import { resolveRunTarget } from './profile/resolve.ts';
import type { Profile } from './profile/types.ts';
import { runHostAddress, setUpEnvFromHost, setUpProfileFromHost } from './run/host-socket.ts';

/**
 * Where a worker's checks go when a configuration's project says so — `use: { runTarget: { baseUrl,
 * profile, budget } }` — ahead of BASE_URL, GATECHECK_PROFILE and GATECHECK_BUDGET. One run can then check
 * several targets, one project each (the mutation run: tests/mutation/mutation.config.ts). Empty by default:
 * the environment decides, as for any run.
 */
export interface RunTargetOption {
  /** The target's base URL (BASE_URL). */
  readonly baseUrl?: string;
  /** Path of the target's profile (GATECHECK_PROFILE). */
  readonly profile?: string;
  /** Fuzz cases for the run (GATECHECK_BUDGET). */
  readonly budget?: number;
  /**
   * Variables of the target's own, under their own names: the secrets its profile takes (`{ "env": NAME }`,
   * specs/profile/env-secrets.ts). Two targets whose profiles name the same variables (init writes
   * GATECHECK_ADMIN_PASSWORD for every document) can then each have their own values in one run.
   */
  readonly env?: Readonly<Record<string, string>>;
}

export const runTargetOption: [RunTargetOption, { scope: 'worker'; option: true }] = [
  {},
  { scope: 'worker', option: true },
];

/**
 * The environment a worker's checks read: the process's, with the project's `runTarget` written over it
 * under the variables' own names — so a project's target goes through the same resolution and validation
 * as BASE_URL and GATECHECK_PROFILE (specs/profile/resolve.ts) and the same fuzz settings (GATECHECK_BUDGET).
 */
export function runEnv(runTarget: RunTargetOption, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const { baseUrl, profile, budget, env: own } = runTarget;
  if (baseUrl === undefined && profile === undefined && budget === undefined && own === undefined) return env;
  return {
    ...env,
    ...own,
    ...(baseUrl === undefined ? {} : { [ENV.baseUrl]: baseUrl }),
    ...(profile === undefined ? {} : { [ENV.profile]: profile }),
    ...(budget === undefined ? {} : { [ENV.budget]: String(budget) }),
  };
}

/** The base URL a worker checks: BASE_URL of its environment (runEnv), else the profile's. */
export function baseUrlOf(env: NodeJS.ProcessEnv, profile: Profile): string {
  const baseUrl = env[ENV.baseUrl] || profile.baseUrl;
  if (!baseUrl) throw new Error(`no target: set ${ENV.baseUrl} or the profile's baseUrl`);
  return baseUrl;
}

/** What the run's set-up hands a worker of the suite's (setUpEnvFixture). */
export interface SetUpHandOff {
  /** The profile the set-up resolved for the run's target; undefined in a run without a host. */
  readonly profile: Profile | undefined;
}

/**
 * Automatic, first in a worker of the suite's: the variables the run's set-up made (BASE_URL, GATECHECK_PROFILE,
 * the scheduler's address, …), asked of the runner's host and written into this worker's own environment —
 * never the runner's, which the workers of the user's own projects inherit (issue #40) — and the profile it
 * resolved. Nothing in a run whose config sets its targets up itself (the mutation run): its environment
 * already says it all.
 */
export const setUpEnvFixture: [
  (args: object, use: (handOff: SetUpHandOff) => Promise<void>) => Promise<void>,
  { scope: 'worker'; auto: true },
] = [
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a fixture asks for from this pattern; it asks for none.
  async ({}, use) => {
    const address = runHostAddress();
    Object.assign(process.env, await setUpEnvFromHost(address));
    await use({ profile: await setUpProfileFromHost(address) });
  },
  { scope: 'worker', auto: true },
];

/**
 * Whether a project names no target of its own (`use: { runTarget }` empty): it checks the run's. Variables of
 * its own (`env`) are a target of its own too: the profile the set-up resolved did not read them.
 */
function checksTheRunsTarget(runTarget: RunTargetOption): boolean {
  return runTarget.baseUrl === undefined && runTarget.profile === undefined && runTarget.env === undefined;
}

/**
 * The validated profile, once per worker: the one the run's set-up resolved, handed down, where the worker
 * checks the run's target; else resolved here as the set-up resolves it (a BASE_URL without a profile is refused).
 */
export const profileFixture: [
  (
    args: { runTarget: RunTargetOption; setUpEnv: SetUpHandOff },
    use: (profile: Profile) => Promise<void>,
  ) => Promise<void>,
  { scope: 'worker' },
] = [
  async ({ runTarget, setUpEnv }, use) => {
    const handed = checksTheRunsTarget(runTarget) ? setUpEnv.profile : undefined;
    const profile = handed ?? resolveRunTarget(runEnv(runTarget)).profile;
    rememberSecrets(profileSecrets(profile, {}));
    await use(profile);
  },
  { scope: 'worker' },
];

/** A worker's target and profile: the fixtures every test type of the suite starts from. */
export interface RunTargetFixtures {
  runTarget: RunTargetOption;
  /** The run's set-up's variables, in this worker's environment, and its profile (setUpEnvFixture). */
  setUpEnv: SetUpHandOff;
  profile: Profile;
}

/**
 * The test type of the observer verdicts (specs/observe/), and the base of the checks' (specs/kit/fixtures.ts):
 * the suite's base (specs/lib/base-test.ts: `_baseTest` where Playwright has it) with the run's target.
 */
export const runTargetTest = baseTest.test.extend<object, RunTargetFixtures>({
  runTarget: runTargetOption,
  setUpEnv: setUpEnvFixture,
  profile: profileFixture,
});
