import { defineConfig, type ReporterDescription } from '@playwright/test';

/**
 * The product: the conformance suite. `npx playwright test` with no settings starts the bundled mock
 * and checks it; `BASE_URL=<url> GATECHECK_PROFILE=<profile.json> npx playwright test` checks any target
 * (specs/global-setup.ts). The project's own tests are configured in tests/playwright.config.ts.
 */
// `playwright test --list` runs nothing, so it writes no report: the conformance reporter sees the list mode
// itself; JUnit and Playwright's HTML report would write an empty run over the last one, so they are left out.
const listing = process.argv.includes('--list');
const reporter: ReporterDescription[] = [
  [process.env.CI ? 'dot' : 'list'],
  // The conformance report (reports/conformance.json, .html, summary.md).
  ['./specs/report/reporter.ts'],
  // JUnit for CI and Playwright's own HTML report, beside it (the CLI points them at --report-dir).
  ...(listing
    ? []
    : ([
        ['junit', { outputFile: `${process.env.GATECHECK_REPORT_DIR || 'reports'}/junit.xml` }],
        [
          'html',
          { outputFolder: `${process.env.GATECHECK_REPORT_DIR || 'reports'}/playwright-html`, open: 'never' },
        ],
      ] satisfies ReporterDescription[])),
];

export default defineConfig({
  testDir: 'specs',
  testMatch: '**/*.spec.ts',
  globalSetup: './specs/global-setup.ts',
  forbidOnly: !!process.env.CI,
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  reporter,
  outputDir: 'test-results/conformance',
  use: {
    // Set by the user, or by global setup when it starts the bundled mock (workers load this file after it ran).
    baseURL: process.env.BASE_URL,
    trace: 'off',
  },
  projects: [
    // Its teardown runs after it, failures or not: the observer verdicts over every response it received.
    { name: 'conformance', testMatch: '**/*.spec.ts', teardown: 'observers' },
    { name: 'observers', testMatch: 'observe/*.verdict.ts' },
  ],
});
