import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';

/**
 * The project's own tests (the mock, the suite's machinery, the CLI, the mutation score).
 * The conformance suite itself — the product — is configured in ../playwright.config.ts.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.test.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // At least two: most of these tests wait (on a rate limit's window, a child run, an install), so two workers
  // on two cores halve the wall time; Playwright's own default is half the cores, one on a 2-core machine.
  workers: process.env.CI ? 2 : Math.max(2, Math.floor(availableParallelism() / 2)),
  timeout: 60_000,
  reporter: process.env.CI ? [['list'], ['junit', { outputFile: '../reports/self-test.junit.xml' }]] : 'list',
  outputDir: '../test-results/self',
});
