/**
 * The user's config of guest-project/playwright.config.ts with one project more: `after`, their own tests
 * run once the suite's set-up is done (`dependencies: ['gatecheck-setup']`: any project of theirs whose
 * workers start after it), in the same run (tests/package/guest-project.test.ts).
 */
import { defineConfig } from '@playwright/test';
import { gatecheckProjects, gatecheckReporter } from '../../../specs/project/index.ts';

export default defineConfig({
  reporter: [['list'], gatecheckReporter()],
  outputDir: `${process.cwd()}/test-results`,
  projects: [...gatecheckProjects(), { name: 'after', testDir: 'after', dependencies: ['gatecheck-setup'] }],
});
