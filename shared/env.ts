/**
 * Run settings read from the environment. The CLI (cli/) sets these for the Playwright processes it
 * starts; a user running `npx playwright test` directly sets them by hand. One place names them all.
 */

export const ENV = {
  /** Target base URL; without it the suite starts the bundled mock on a free port. */
  baseUrl: 'BASE_URL',
  /** Path of the target profile JSON; default fixtures/mock.profile.json for the bundled mock. */
  profile: 'GATECHECK_PROFILE',
  /** '1': SHOULD rules fail the run instead of warning. */
  strict: 'GATECHECK_STRICT',
  /** Fuzz seed (integer); fixed by default so runs repeat. */
  seed: 'GATECHECK_SEED',
  /** Fuzz cases for the whole run (integer). */
  budget: 'GATECHECK_BUDGET',
  /** `playwright`: the fuzz cases go through Playwright's APIRequestContext, which its traces record. */
  fuzzClient: 'GATECHECK_FUZZ_CLIENT',
  /** Where reports are written; default reports/. */
  reportDir: 'GATECHECK_REPORT_DIR',
  /** The --only / --skip selection as the user wrote it, shown in the report (set by the CLI). */
  filter: 'GATECHECK_FILTER',
  /** An id the CLI gives each run, written into conformance.json so a stale report is never read. */
  runId: 'GATECHECK_RUN_ID',
  /** '1' when the CLI started the run: the reporter leaves the final summary to the CLI. */
  cli: 'GATECHECK_CLI',
  /** PEM file of a private CA the target's certificate chains to (--ca-cert); over the profile's tls.ca. */
  caCert: 'GATECHECK_CA_CERT',
  /** Set by whoever hosts the run's token broker (specs/credentials): its loopback URL and per-run secret. */
  tokenBroker: 'GATECHECK_TOKEN_BROKER',
  tokenBrokerSecret: 'GATECHECK_TOKEN_BROKER_SECRET',
  /** Most MUST rules that may go unchecked (skipped or not run) in a conformant run; unset: no limit. */
  maxSkippedMust: 'GATECHECK_MAX_SKIPPED_MUST',
  /**
   * `off`: the run's scheduler learns nothing (no key, no pace: specs/run/coordinator.ts). A diagnostic, for
   * the project's tests to show they fail without it; never needed in a run.
   */
  schedulerLearning: 'GATECHECK_SCHEDULER_LEARNING',
  /** Waiver file (--waivers, or the profile's `waivers`), absolute: failures it accepts do not fail the gate. */
  waivers: 'GATECHECK_WAIVERS',
  /** '1': a stale waiver (one that matched no failure) fails the gate (--strict-waivers). */
  strictWaivers: 'GATECHECK_STRICT_WAIVERS',
  /** An earlier run's conformance.json (--baseline), absolute: the gate fails only on what got worse. */
  baseline: 'GATECHECK_BASELINE',
  /** The date waivers are compared with, YYYY-MM-DD (UTC); the CLI sets it once per run, tests inject it. */
  today: 'GATECHECK_TODAY',
} as const;

export const DEFAULT_SEED = 20261121;
export const DEFAULT_FUZZ_CASES = 2400;

export function isStrict(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[ENV.strict] === '1' || env[ENV.strict] === 'true';
}

/**
 * Set by the suite's global setup (never by users): '1' when the run targets the bundled mock it started
 * in-process. Workers and reporters read it with BASE_URL and GATECHECK_PROFILE, which global setup
 * also fills in (workers inherit the runner's environment after global setup).
 */
export const ENV_EMBEDDED = 'GATECHECK_EMBEDDED';
