/**
 * The test type the suite starts from, chosen among what the installed @playwright/test exports. The suite
 * runs on the user's own Playwright (a peer dependency, docs/package.md "Playwright versions"), so this is
 * the one place that touches an export Playwright does not promise.
 *
 * `_baseTest` is @playwright/test's test type without its browser fixtures: every check on the browser
 * `test` also sets up and tears down ≈ 36 browser-context fixtures it never uses, ≈ 70 steps per test,
 * ≈ 0.7 s of the default run (docs/performance.md "The browser fixtures no check uses"). It is exported and
 * typed, but private by its name: should a Playwright version drop it or change its shape, the suite falls
 * back to the public `test`, slower, with the same checks and verdicts.
 *
 * Both are read from the package's CommonJS entry: its ES module entry re-exports that same module (one
 * instance), but lists `_baseTest` among its names only in recent versions (1.60, not 1.55), while the CommonJS entry has
 * exported it in every version the suite supports.
 */
import { createRequire } from 'node:module';
import type { TestType } from '@playwright/test';
import { ENV } from '../../shared/env.ts';

/** A test type with no fixtures the suite relies on; what both candidates are used as. */
// biome-ignore lint/complexity/noBannedTypes: Playwright's own spelling of "no fixtures" (`TestType<{}, {}>`).
export type BareTestType = TestType<{}, {}>;

/** What @playwright/test exports that the choice reads (its module namespace in a run). */
export interface PlaywrightTestTypes {
  readonly test: unknown;
  readonly _baseTest?: unknown;
}

export type BaseTestChoice = {
  readonly test: BareTestType;
  /** Which one: `bare` (`_baseTest`), `browser` (the public `test`). */
  readonly kind: 'bare' | 'browser';
  /** Why the browser `test`, when it is. */
  readonly reason?: string;
};

/** Whether `value` is a Playwright test type: a function with `extend` (what the suite calls on it). */
function isTestType(value: unknown): value is BareTestType {
  return typeof value === 'function' && typeof (value as { extend?: unknown }).extend === 'function';
}

/**
 * `_baseTest` when the installed Playwright exports it as a test type, unless the fuzz cases are to go
 * through Playwright's request client (GATECHECK_FUZZ_CLIENT=playwright, docs/fuzzing.md "Clients"): only the
 * browser test type records those calls in a trace (`--trace on`), through its artifacts fixture. The choice
 * is the same in the runner and every worker (one environment and one Playwright).
 */
export function chooseBaseTest(
  exported: PlaywrightTestTypes,
  env: NodeJS.ProcessEnv = process.env,
): BaseTestChoice {
  if (!isTestType(exported.test)) throw new TypeError('@playwright/test exports no test type `test`');
  const browser = exported.test;
  if (env[ENV.fuzzClient] === 'playwright')
    return { test: browser, kind: 'browser', reason: `${ENV.fuzzClient}=playwright (traced request client)` };
  if (!isTestType(exported._baseTest))
    return { test: browser, kind: 'browser', reason: 'this @playwright/test exports no `_baseTest`' };
  return { test: exported._baseTest, kind: 'bare' };
}

/** The run's choice, from the @playwright/test the suite is loaded beside (the user's own, a peer dependency). */
export const baseTest: BaseTestChoice = chooseBaseTest(
  createRequire(import.meta.url)('@playwright/test') as PlaywrightTestTypes,
);
