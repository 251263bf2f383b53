/**
 * `gatecheck/playwright`: the conformance suite as projects of the user's own `playwright.config.ts`,
 * beside their tests, under their sharding and CI (docs/package.md):
 *
 *   globalSetup: gatecheckGlobalSetup,
 *   reporter: [['list'], gatecheckReporter()],
 *   projects: [{ name: 'e2e' }, ...gatecheckProjects({ profile: './staging.profile.json', baseUrl })],
 *
 * Two projects, as in the repository's own playwright.config.ts: the suite, and its teardown project that
 * judges every response the suite received (the `observed.*` rules, specs/observe/). One call gives both, to
 * spread, so the observed rules cannot be left out by forgetting a second line.
 *
 * The suite's global setup is a config-level `globalSetup`, not a setup project the gatecheck project
 * depends on: it hands the run's scheduler and token broker to every worker through the environment, which
 * only the runner process can do (a setup project runs in a worker of its own).
 */
import { resolve } from 'node:path';
import type { PlaywrightTestProject, ReporterDescription } from '@playwright/test';
import { CODE_ROOT, codeModule, MODULE_EXT } from '../../shared/paths.ts';
import { ENV } from '../lib/env.ts';
import type { ConformanceReporterOptions } from '../report/reporter.ts';
import type { RunTargetOption } from '../run-target.ts';

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
  /** The suite project's name in Playwright's output and `--project`; default `gatecheck` (its teardown: `gatecheck-observers`). */
  readonly name?: string;
}

/** The suite's global setup (profile check, scheduler, token broker, bundled mock): one `globalSetup` line. */
export const gatecheckGlobalSetup: string = codeModule('specs/global-setup');

/** The conformance reporter (conformance.json, .html, summary.md) as one entry of the config's `reporter`. */
export function gatecheckReporter(options: ConformanceReporterOptions = {}): ReporterDescription {
  return [codeModule('specs/report/reporter'), options];
}

/**
 * The suite's projects: `<name>` (the checks) and `<name>-observers`, its teardown (Playwright runs it after
 * the checks, failures or not, and with `--project <name>`). The profile and base URL go where the suite's
 * global setup and its workers read them (the environment), since a config is loaded by the runner and again
 * by every worker.
 */
export function gatecheckProjects(options: GatecheckProjectOptions = {}): PlaywrightTestProject[] {
  const { target } = options;
  if (target === undefined) {
    if (options.profile !== undefined) process.env[ENV.profile] = resolve(options.profile);
    if (options.baseUrl !== undefined) process.env[ENV.baseUrl] = options.baseUrl;
  }
  const name = options.name ?? 'gatecheck';
  const observers = `${name}-observers`;
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
  return [
    { ...shared, name, testMatch: `**/*.spec${MODULE_EXT}`, teardown: observers },
    { ...shared, name: observers, testMatch: `observe/*.verdict${MODULE_EXT}` },
  ];
}
