/** Where things are, from any working directory. */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { moduleExtUnder } from '../../../shared/paths.ts';

/** The package root. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The Playwright CLI, run with the current Node. */
export const PLAYWRIGHT_CLI = fileURLToPath(
  new URL('../../../node_modules/@playwright/test/cli.js', import.meta.url),
);

/** The child run's configuration in the code under `code`. */
export function mutationConfig(code: string): string {
  return join(code, `tests/mutation/mutation.config${moduleExtUnder(code)}`);
}
