/**
 * The suite's test type on the user's Playwright (specs/lib/base-test.ts): `_baseTest` where the installed
 * @playwright/test exports it as a test type, else the public browser `test` — the guarded fallback for a
 * version that drops or reshapes the private export. The choice made on the installed versions is checked
 * by tests/package/playwright-versions.test.ts.
 */
import * as playwright from '@playwright/test';
import { expect, test } from '@playwright/test';
import { baseTest, chooseBaseTest } from '../../specs/lib/base-test.ts';

const installed = playwright as unknown as { test: unknown; _baseTest: unknown };

test('this repository’s Playwright: the bare `_baseTest`', () => {
  expect(baseTest.kind).toBe('bare');
  expect(baseTest.test).toBe(installed._baseTest);
  expect(chooseBaseTest(installed, {}).test).toBe(installed._baseTest);
});

test('a Playwright without `_baseTest` → the public `test`, with the reason', () => {
  const choice = chooseBaseTest({ test: installed.test }, {});
  expect(choice).toEqual({
    test: installed.test,
    kind: 'browser',
    reason: 'this @playwright/test exports no `_baseTest`',
  });
});

test('a `_baseTest` that is no longer a test type (no `extend`) → the public `test`', () => {
  for (const reshaped of [{}, () => {}, 'test', null]) {
    const choice = chooseBaseTest({ test: installed.test, _baseTest: reshaped }, {});
    expect(choice.kind, String(reshaped)).toBe('browser');
    expect(choice.test).toBe(installed.test);
  }
});

test('GATECHECK_FUZZ_CLIENT=playwright → the browser `test` (its artifacts fixture traces the request client)', () => {
  const choice = chooseBaseTest(installed, { GATECHECK_FUZZ_CLIENT: 'playwright' });
  expect(choice.kind).toBe('browser');
  expect(choice.test).toBe(installed.test);
});

test('no `test` at all → a TypeError naming it, not a suite that loads nothing', () => {
  expect(() => chooseBaseTest({ test: undefined, _baseTest: installed._baseTest }, {})).toThrow(
    /exports no test type `test`/,
  );
});
