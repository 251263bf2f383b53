/**
 * A consumer's playwright.config.ts as docs/package.md writes it, importing this repository's sources where
 * the installed package would give `gatecheck/playwright`: its own project beside the suite's two.
 */
import { defineConfig } from '@playwright/test';
import { gatecheckGlobalSetup, gatecheckProjects, gatecheckReporter } from '../../../specs/project/index.ts';

export default defineConfig({
  globalSetup: gatecheckGlobalSetup,
  reporter: [['line'], gatecheckReporter({ outputDir: process.env.CONSUMER_REPORT_DIR })],
  outputDir: `${process.env.CONSUMER_REPORT_DIR}/test-results`,
  projects: [{ name: 'own', testDir: 'own-tests' }, ...gatecheckProjects()],
});
