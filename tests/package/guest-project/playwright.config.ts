/**
 * A user's playwright.config.ts with the suite as a guest (docs/package.md), importing this repository's
 * sources where the installed package would give `gatecheck/playwright`: the user's own project `e2e`
 * beside the suite's. Written as docs/package.md wrote it for gatecheck 0.1, `globalSetup` line included.
 * Where things go comes from the environment (tests/package/guest-project.test.ts runs it from a temporary
 * working directory): the profile (GUEST_PROFILE; unset: the bundled mock) and Playwright's output.
 */
import { defineConfig } from '@playwright/test';
import { gatecheckGlobalSetup, gatecheckProjects, gatecheckReporter } from '../../../specs/project/index.ts';

export default defineConfig({
  globalSetup: gatecheckGlobalSetup,
  reporter: [['list'], gatecheckReporter()],
  outputDir: `${process.cwd()}/test-results`,
  projects: [
    // GUEST_E2E_DIR: a folder of the test's own (a spec with a syntax error), else the fixture's e2e/.
    { name: 'e2e', testDir: process.env.GUEST_E2E_DIR ?? 'e2e' },
    ...gatecheckProjects(process.env.GUEST_PROFILE ? { profile: process.env.GUEST_PROFILE } : {}),
  ],
});
