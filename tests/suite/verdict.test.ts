/**
 * The one level → verdict mapping (specs/verdict/verdict.ts) that conformance checks and fuzz plans share:
 * INFO → observation, SHOULD → warning (violation when strict), MUST → violation.
 */

import { expect, test } from '@playwright/test';
import { recordBrokenRule, verdictFor } from '../../specs/verdict/verdict.ts';

test('each level maps to its verdict, strict or not', () => {
  expect(verdictFor('INFO', false)).toBe('observation');
  expect(verdictFor('INFO', true)).toBe('observation');
  expect(verdictFor('SHOULD', false)).toBe('warning');
  expect(verdictFor('SHOULD', true)).toBe('violation');
  expect(verdictFor('MUST', false)).toBe('violation');
  expect(verdictFor('MUST', true)).toBe('violation');
});

test('a warning or observation is annotated and the test goes on; a violation is left to the caller', () => {
  const info = { annotations: [] as { type: string; description?: string }[] };
  const record = (level: 'MUST' | 'SHOULD' | 'INFO') =>
    recordBrokenRule(info as unknown as Parameters<typeof recordBrokenRule>[0], level, `[x] ${level}`);
  const strict = process.env.GATECHECK_STRICT; // ENV.strict (shared/env.ts)
  delete process.env.GATECHECK_STRICT;
  try {
    expect(record('INFO')).toBe(false);
    expect(record('SHOULD')).toBe(false);
    expect(record('MUST')).toBe(true);
  } finally {
    if (strict !== undefined) process.env.GATECHECK_STRICT = strict;
  }
  expect(info.annotations).toEqual([
    { type: 'observation', description: '[x] INFO' },
    { type: 'warning', description: '[x] SHOULD' },
  ]);
});
