/**
 * A consumer's `playwright.config.ts` as README's way in writes it: `gatecheckProjects()` spread into its
 * projects (no profile: the suite starts its bundled mock), the conformance reporter writing
 * gatecheck-report/. The Node-release tests run it from a CommonJS and an ES module project.
 */
export const SPREAD_CONFIG = `import { defineConfig } from '@playwright/test';
import { gatecheckProjects, gatecheckReporter } from 'gatecheck/playwright';

export default defineConfig({
  reporter: [['line'], gatecheckReporter({ outputDir: 'gatecheck-report' })],
  projects: [...gatecheckProjects()],
});
`;
