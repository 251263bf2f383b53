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
  /** Where reports are written; default reports/. */
  reportDir: 'GATECHECK_REPORT_DIR',
} as const;

export const DEFAULT_SEED = 20261121;
export const DEFAULT_FUZZ_CASES = 2400;

export function isStrict(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[ENV.strict] === '1' || env[ENV.strict] === 'true';
}
