import { resolve } from 'node:path';
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { MODULE_EXT } from './shared/paths.ts';
import { loaderEnv } from './shared/typescript-loader.ts';
import { playwrightGrep } from './specs/setup/playwright-grep.ts';
import { openRunHost } from './specs/setup/run-host.ts';

/**
 * The product: the conformance suite. `npx playwright test` with no settings starts the bundled mock
 * and checks it; `BASE_URL=<url> GATECHECK_PROFILE=<profile.json> npx playwright test` checks any target
 * (specs/setup/set-up.ts, done by the global setup: specs/setup/global-set-up.ts). The project's own tests are configured in tests/playwright.config.ts.
 * The same file runs compiled in the installed package (docs/package.md): module paths take the running
 * code's extension, and report paths are resolved from the working directory, never inside node_modules.
 */
// `playwright test --list` runs nothing, so it writes no report: the conformance reporter sees the list mode
// itself; JUnit and Playwright's HTML report would write an empty run over the last one, so they are left out.
const listing = process.argv.includes('--list');
// The runner's host for the run's set-up and its workers' questions (in a worker: nothing).
openRunHost();
// Compiled (the installed package), its workers need no TypeScript loader (shared/typescript-loader.ts; the CLI
// turns it off for the runner too). They load no reporter: none of the user's arguments is theirs to load.
Object.assign(process.env, loaderEnv([], process.env));
const reportDir = resolve(process.env.GATECHECK_REPORT_DIR || 'reports');
const reporter: ReporterDescription[] = [
  [process.env.CI ? 'dot' : 'list'],
  // The conformance report (reports/conformance.json, .html, summary.md).
  [`./specs/report/reporter${MODULE_EXT}`],
  // JUnit for CI and Playwright's own HTML report, beside it (the CLI points them at --report-dir).
  ...(listing
    ? []
    : ([
        ['junit', { outputFile: `${reportDir}/junit.xml` }],
        ['html', { outputFolder: `${reportDir}/playwright-html`, open: 'never' }],
      ] satisfies ReporterDescription[])),
];

export default defineConfig({
  testDir: 'specs',
  testMatch: `**/*.spec${MODULE_EXT}`,
  forbidOnly: !!process.env.CI,
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  reporter,
  outputDir: resolve('test-results/conformance'),
  use: {
    // Set by the user (the run's set-up hands its target to the suite's workers, not to the environment: issue #40).
    baseURL: process.env.BASE_URL,
    trace: 'off',
  },
  // The run's set-up — profile, scheduler, bundled mock, token broker — in the runner before any worker starts:
  // every test here is the suite's (a user's own config takes gatecheckProjects()' setup project instead).
  globalSetup: `./specs/setup/global-set-up${MODULE_EXT}`,
  projects: [
    // Its teardown runs after it, failures or not: the observer verdicts over every response it received.
    {
      name: 'conformance',
      testMatch: `**/*.spec${MODULE_EXT}`,
      teardown: 'observers',
    },
    // Its verdicts take milliseconds over stored observations: one worker process, not one per core to start.
    // The command line's --grep selects among them too (Playwright applies it to no teardown by itself).
    {
      name: 'observers',
      testMatch: `observe/*.verdict${MODULE_EXT}`,
      fullyParallel: false,
      ...playwrightGrep(),
    },
  ],
});
