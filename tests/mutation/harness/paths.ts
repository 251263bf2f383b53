/** Where things are, from any working directory. */
import { fileURLToPath } from 'node:url';

/** The package root. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The Playwright CLI, run with the current Node. */
export const PLAYWRIGHT_CLI = fileURLToPath(
  new URL('../../../node_modules/@playwright/test/cli.js', import.meta.url),
);
/** The child run's configuration. */
export const MUTATION_CONFIG = fileURLToPath(new URL('../mutation.config.ts', import.meta.url));
