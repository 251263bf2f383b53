/**
 * The suite's `test` (specs/kit/fixtures.ts) carries only the fixtures its checks use. Built on Playwright's
 * browser `test`, every check also set up and tore down its ≈ 36 browser-context fixtures (viewport, locale,
 * trace recording, …): ≈ 70 steps per test, each capturing a source-mapped stack, ≈ 0.7 s of the default
 * run's wall time (docs/performance.md "The browser fixtures no check uses").
 *
 * Playwright reports none of those steps (they are boxed as internal), so this reads the fixture sets the
 * test type was built from, where Playwright keeps them (its TestTypeImpl behind the `testType` symbol).
 * Should that place move in a Playwright update, the test fails and says so rather than passing blind.
 */
import { expect, test as selfTest } from '@playwright/test';
import { test } from '../../specs/kit/fixtures.ts';

/** The suite's own fixtures (specs/kit/fixtures.ts: GateWorkerFixtures and GateTestFixtures; setUpEnv from specs/run-target.ts). */
const SUITE_FIXTURES = [
  'clock',
  'fuzz',
  'kit',
  'mint',
  'observations',
  'profile',
  'runTarget',
  'setUpEnv',
  'target',
];

function fixtureNames(testType: object): string[] | undefined {
  const symbol = Object.getOwnPropertySymbols(testType).find((s) => s.description === 'testType');
  const impl = symbol && (testType as Record<symbol, { fixtures?: { fixtures: object }[] }>)[symbol];
  if (!Array.isArray(impl?.fixtures)) return undefined;
  return impl.fixtures.flatMap((f) => Object.keys(f.fixtures));
}

selfTest('the suite’s test type declares no fixture but its own (no browser fixtures)', () => {
  const names = fixtureNames(test);
  expect(names, 'Playwright no longer keeps a test type’s fixtures where this test looks').toBeDefined();
  expect([...new Set(names)].sort()).toEqual(SUITE_FIXTURES);
});
