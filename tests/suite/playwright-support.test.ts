/**
 * A Playwright outside the peer range is named in one line with the range (shared/playwright-support.ts,
 * issue #40), read as npm reads a caret range; the suite's projects then hold the one test saying so.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import {
  inCaretRange,
  installedPlaywrightLine,
  unsupportedPlaywrightLine,
} from '../../shared/playwright-support.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('a caret range admits its floor up to the next major, as npm reads it', () => {
  for (const v of ['1.42.0', '1.42.3', '1.55.1', '1.65.1', '1.99.0'])
    expect(inCaretRange(v, '^1.42.0'), v).toBe(true);
  for (const v of ['1.40.0', '1.41.9', '0.42.0', '2.0.0']) expect(inCaretRange(v, '^1.42.0'), v).toBe(false);
  expect(inCaretRange('1.42.0', '^1.42.1')).toBe(false);
});

test('the line names the installed version and the supported range', () => {
  expect(unsupportedPlaywrightLine('1.40.0', '^1.42.0')).toBe(
    'needs @playwright/test ^1.42.0; this project has 1.40.0 installed: install a version in that range (npm install -D "@playwright/test@^1.42.0")',
  );
  expect(unsupportedPlaywrightLine('1.65.1', '^1.42.0')).toBeUndefined();
});

test("the repository's own Playwright is in the range (no line)", () => {
  const pin = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).devDependencies[
    '@playwright/test'
  ];
  expect(installedPlaywrightLine(), `Playwright ${pin}`).toBeUndefined();
});
