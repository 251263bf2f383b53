/**
 * Baselines (issue #41): the gate fails only on what got worse than an earlier run — passed → fails, a MUST
 * rule that ran → unchecked, a new rule failing; still failing is known, now passing is fixed. Another
 * catalogue version is compared rule by rule. Built in-process (tests/gate/build-gated.ts).
 */

import { expect, test } from '@playwright/test';
import { parseBaseline } from '../../specs/report/gate/baseline-file.ts';
import { schemaErrors } from '../report/schema.ts';
import { baselineOf, gatedReport, IDS, WAIVE_POST } from './build-gated.ts';

test('still failing is known (the gate passes, the rule stays failed); failing then passing is fixed', () => {
  const report = gatedReport({
    outcomes: { 'success.200.put': 'fail' },
    baseline: baselineOf({ 'success.200.put': 'fail', 'success.200.delete': 'fail' }),
  });
  expect(schemaErrors(report)).toEqual([]);
  const put = report.rules.find((r) => r.id === 'success.200.put');
  expect(put).toMatchObject({ verdict: 'fail', baseline: { change: 'known', was: 'fail' } });
  expect(report.rules.find((r) => r.id === 'success.200.delete')?.baseline).toEqual({
    change: 'fixed',
    was: 'fail',
  });
  expect(report.baseline).toMatchObject({
    known: ['success.200.put'],
    fixed: ['success.200.delete'],
    worse: [],
  });
  expect(report.conformance.statement).toBe('Not conformant: 1 MUST rule fails (1 known from the baseline)');
  expect(report.gate).toMatchObject({ passed: true, counts: { known: 1, fixed: 1, unaccepted: 0 } });
  expect(report.gate?.statement).toBe(
    'Gate passed: 1 failing rule accepted (1 known from the baseline); nothing got worse than the baseline; 1 fixed',
  );
});

test('passed in the baseline, fails now → the gate fails naming only that rule', () => {
  const report = gatedReport({
    outcomes: { 'success.200.put': 'fail', 'success.200.delete': 'fail' },
    baseline: baselineOf({ 'success.200.put': 'fail' }),
  });
  expect(report.gate?.passed).toBe(false);
  expect(report.gate?.blocking).toEqual(['success.200.delete: pass in the baseline, fails now']);
  expect(report.baseline?.worse).toEqual(['success.200.delete: pass in the baseline, fails now']);
});

test('a MUST rule that ran in the baseline and is skipped now got worse', () => {
  const report = gatedReport({ outcomes: { 'ratelimit.429.exceeded': 'skip' }, baseline: baselineOf({}) });
  expect(report.gate?.passed).toBe(false);
  expect(report.gate?.blocking).toEqual([
    'ratelimit.429.exceeded: MUST rule ran in the baseline (pass), skip now',
  ]);
  // Skipped in both: nothing changed.
  const same = gatedReport({
    outcomes: { 'ratelimit.429.exceeded': 'skip' },
    baseline: baselineOf({ 'ratelimit.429.exceeded': 'skip' }),
  });
  expect(same.gate?.passed).toBe(true);
});

test('a baseline of another catalogue version: compared rule by rule, new rules named, a new rule failing is worse', () => {
  const older = baselineOf({ 'success.200.put': 'fail' }, '1.3.0', [
    ...IDS.filter((id) => id !== 'success.200.delete'),
    'retired.rule',
  ]);
  const report = gatedReport({
    outcomes: { 'success.200.put': 'fail', 'success.200.delete': 'fail' },
    baseline: older,
  });
  expect(schemaErrors(report)).toEqual([]);
  expect(report.baseline).toMatchObject({
    catalogueVersion: '1.3.0',
    newRules: ['success.200.delete'],
    removedRules: ['retired.rule'],
    known: ['success.200.put'],
  });
  expect(report.gate?.blocking).toEqual(['success.200.delete: a rule the baseline did not have, fails']);

  const passingNew = gatedReport({ outcomes: { 'success.200.put': 'fail' }, baseline: older });
  expect(passingNew.gate?.passed).toBe(true);
  expect(passingNew.baseline?.newRules).toEqual(['success.200.delete']);
});

test('a waiver and a baseline together: one failure waived, one known; both still failures', () => {
  const report = gatedReport({
    outcomes: { 'success.200.post': 'fail', 'success.200.put': 'fail' },
    waivers: [WAIVE_POST],
    baseline: baselineOf({ 'success.200.put': 'fail' }),
  });
  expect(schemaErrors(report)).toEqual([]);
  expect(report.gate).toMatchObject({ passed: true, counts: { failing: 2, waived: 1, known: 1 } });
  expect(report.conformance.statement).toBe(
    'Not conformant: 2 MUST rules fail (1 waived, 1 known from the baseline)',
  );
});

test('a baseline file that is not a report is refused in one line', () => {
  expect(() => parseBaseline('{"name":"x"}', 'x.json')).toThrow(
    '--baseline x.json has no rules, catalogue.version or run.startedAt: give the conformance.json of an earlier gatecheck run',
  );
  expect(() => parseBaseline('nope', 'x.json')).toThrow(/--baseline x\.json is not JSON/);
});
