/** The suite's version is the package's: one number for the CLI's --version and every report. */

import { readFileSync } from 'node:fs';

export const PACKAGE_ROOT = new URL('../../', import.meta.url);

export function suiteVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('package.json', PACKAGE_ROOT), 'utf8')) as {
    version?: unknown;
  };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}
