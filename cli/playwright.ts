/** Where Playwright and the suite's config are, and how the CLI starts Playwright's own CLI. */

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { codeModule } from '../shared/paths.ts';

const require = createRequire(import.meta.url);

/**
 * Playwright's CLI as this package resolves its peer `@playwright/test` (the project's own Playwright,
 * docs/package.md "Playwright versions"), not whatever `npx playwright` finds first.
 */
export const PLAYWRIGHT_CLI = require.resolve('@playwright/test/cli');
export const SUITE_CONFIG = codeModule('playwright.config');
export const REPORTER = codeModule('specs/report/reporter');

/** Runs `playwright <args>` with the terminal attached (its progress output is the CLI's); resolves its exit code. */
export function runPlaywright(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PLAYWRIGHT_CLI, ...args], { stdio: 'inherit', env });
    // Ctrl-C reaches the child through the terminal's process group; wait for it to write its reports.
    const ignore = () => {};
    process.on('SIGINT', ignore);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      process.off('SIGINT', ignore);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}
