/**
 * `gatecheck/playwright`: the conformance suite as projects of the user's own `playwright.config.ts`,
 * beside their tests, under their sharding and CI (docs/package.md):
 *
 *   reporter: [['list'], gatecheckReporter()],
 *   projects: [{ name: 'e2e' }, ...gatecheckProjects({ profile: './staging.profile.json', baseUrl })],
 *
 * Three projects, as in the repository's own playwright.config.ts: the suite's setup project, the suite, and
 * its teardown project that judges every response the suite received (the `observed.*` rules,
 * specs/observe/). One call gives all three, to spread, so none can be left out by a forgotten line.
 *
 * A guest in the user's project (issue #40): nothing of the suite runs unless one of its checks is selected.
 * The set-up is a setup project the checks depend on, which Playwright runs only when they have a selected
 * test; it asks the runner process to set the run up (specs/setup/run-host.ts), since only the runner can hand
 * the run's scheduler and token broker to the workers it starts.
 */
import { resolve } from 'node:path';
import type { PlaywrightTestProject, ReporterDescription } from '@playwright/test';
import { ENV } from '../../shared/env.ts';
import { CODE_ROOT, codeModule, MODULE_EXT } from '../../shared/paths.ts';
import { installedPlaywrightLine } from '../../shared/playwright-support.ts';
import type { ConformanceReporterOptions } from '../report/reporter.ts';
import type { RunTargetOption } from '../run-target.ts';
import { playwrightGrep } from '../setup/playwright-grep.ts';
import { openRunHost } from '../setup/run-host.ts';

export interface GatecheckProjectOptions {
  /**
   * This pair of projects' own target — `{ baseUrl, profile, budget }`, the suite's `runTarget` option —
   * so one config checks several targets, one call each (docs/ci.md "Several targets in one Playwright
   * run"). Written into the projects' `use`, not the environment; `profile` and `baseUrl` then go unused.
   */
  readonly target?: RunTargetOption;
  /** The target's profile (JSON), relative to the working directory; default $GATECHECK_PROFILE, else the bundled mock's. */
  readonly profile?: string;
  /** The target's base URL; default $BASE_URL, else the bundled mock, started by the global setup. */
  readonly baseUrl?: string;
  /**
   * The suite project's name in Playwright's output and `--project`; default `gatecheck` (its setup:
   * `gatecheck-setup`, its teardown: `gatecheck-observers`).
   */
  readonly name?: string;
}

/**
 * Kept so that a config written for gatecheck 0.1 (`globalSetup: gatecheckGlobalSetup`) still loads: a global
 * setup that does nothing, the set-up being the suite's setup project now.
 * @deprecated not needed: remove the `globalSetup` line.
 */
export const gatecheckGlobalSetup: string = codeModule('specs/project/no-global-setup');

/** The conformance reporter (conformance.json, .html, summary.md) as one entry of the config's `reporter`. */
export function gatecheckReporter(options: ConformanceReporterOptions = {}): ReporterDescription {
  return [codeModule('specs/report/reporter'), options];
}

/**
 * The suite's projects: `<name>-setup` (the run's set-up), `<name>` (the checks, depending on it) and
 * `<name>-observers`, their teardown (Playwright runs it after the checks, failures or not, and with
 * `--project <name>`). The profile and base URL go where the suite's set-up and its workers read them (the
 * environment), since a config is loaded by the runner and again by every worker.
 */
export function gatecheckProjects(options: GatecheckProjectOptions = {}): PlaywrightTestProject[] {
  openRunHost();
  const { target } = options;
  if (target === undefined) {
    if (options.profile !== undefined) process.env[ENV.profile] = resolve(options.profile);
    if (options.baseUrl !== undefined) process.env[ENV.baseUrl] = options.baseUrl;
  }
  const name = options.name ?? 'gatecheck';
  const observers = `${name}-observers`;
  const setup = `${name}-setup`;
  const runTarget: RunTargetOption | undefined =
    target === undefined
      ? undefined
      : { ...target, ...(target.profile === undefined ? {} : { profile: resolve(target.profile) }) };
  const shared = {
    testDir: resolve(CODE_ROOT, 'specs'),
    fullyParallel: true,
    retries: 0,
    timeout: 30_000,
    use: {
      // Read when a worker loads the config, after the global setup set it (the bundled mock's URL, if started).
      baseURL: runTarget?.baseUrl ?? process.env[ENV.baseUrl],
      trace: 'off' as const,
      ...(runTarget === undefined ? {} : { runTarget }),
    },
  };
  // A Playwright outside the peer range: one test saying so stands in for the checks (specs/run/).
  if (installedPlaywrightLine() !== undefined)
    return [{ ...shared, name, testMatch: `run/unsupported-playwright${MODULE_EXT}` }];
  return [
    { ...shared, name: setup, testMatch: `setup/run.setup${MODULE_EXT}` },
    { ...shared, name, testMatch: `**/*.spec${MODULE_EXT}`, dependencies: [setup], teardown: observers },
    // A teardown has no dependencies: after a failed set-up its verdicts skip themselves (specs/observe/). The
    // command line's --grep selects among them as among the checks (Playwright applies it to no teardown).
    { ...shared, name: observers, testMatch: `observe/*.verdict${MODULE_EXT}`, ...playwrightGrep() },
  ];
}
