/**
 * Whether the installed @playwright/test is one the package supports: its peer range (package.json
 * `peerDependencies`, a caret range such as `^1.42.0`). An older one forced in (`--legacy-peer-deps`) fails
 * deep inside — "fn is not a function" once per check, "test.tags is not iterable" — without ever naming the
 * version (issue #40): this says it in one line, before any test runs.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { PACKAGE_ROOT } from './paths.ts';

/** `1.42.0` → [1, 42, 0]; a pre-release suffix is ignored. */
function parts(version: string): [number, number, number] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** npm's caret range (node-semver): `^1.42.0` admits 1.42.0 up to, not including, 2.0.0. */
export function inCaretRange(version: string, range: string): boolean {
  const floor = /^\^/.test(range.trim()) ? parts(range.trim().slice(1)) : undefined;
  const have = parts(version);
  if (!floor || !have) return true; // A range this does not read is npm's to judge, not this.
  if (have[0] !== floor[0]) return false;
  if (have[1] !== floor[1]) return have[1] > floor[1];
  return have[2] >= floor[2];
}

/** The one line for a Playwright outside `range`, or undefined when it is inside. */
export function unsupportedPlaywrightLine(version: string, range: string): string | undefined {
  if (inCaretRange(version, range)) return undefined;
  return `needs @playwright/test ${range}; this project has ${version} installed: install a version in that range (npm install -D "@playwright/test@${range}")`;
}

/** The installed Playwright (the one this package resolves, the user's own) against the peer range. */
export function installedPlaywrightLine(): string | undefined {
  const require = createRequire(import.meta.url);
  const { version } = require('@playwright/test/package.json') as { version: string };
  const manifest = JSON.parse(readFileSync(resolve(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
    peerDependencies?: Record<string, string>;
  };
  const range = manifest.peerDependencies?.['@playwright/test'];
  return range ? unsupportedPlaywrightLine(version, range) : undefined;
}
