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
  workers: process.env.CI ? 2 : undefined,
  timeout: 60_000,
  reporter: process.env.CI ? [['list'], ['junit', { outputFile: '../reports/self-test.junit.xml' }]] : 'list',
  outputDir: '../test-results/self',
});
