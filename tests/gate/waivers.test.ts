/**
 * Waivers (issue #41): a failing rule matched by a live waiver is reported as waived — its verdict stays
 * `fail`, its evidence whole — and does not fail the gate; an expired one fails it; one that matched nothing is
 * stale; a skipped rule is never waived into anything. Built in-process (tests/gate/build-gated.ts).
 */

import { expect, test } from '@playwright/test';
import { schemaErrors } from '../report/schema.ts';
import { evidenceAt, gatedReport, WAIVE_POST } from './build-gated.ts';

const FAIL_POST = { outcomes: { 'success.200.post': 'fail' } } as const;

test('a live waiver: the rule stays failed with its evidence and replay line, waived, counted apart; the gate passes', () => {
  const report = gatedReport({ ...FAIL_POST, waivers: [WAIVE_POST] });
  expect(schemaErrors(report)).toEqual([]);
  const post = report.rules.find((r) => r.id === 'success.200.post');
  expect(post?.verdict).toBe('fail');
  expect(post?.waiver).toEqual({
    reason: WAIVE_POST.reason,
    until: '2026-12-31',
    ticket: 'API-1234',
  });
  expect(post?.evidence[0]?.replay).toContain("curl -i -sS -X POST 'http://127.0.0.1:8080/api/users'");
  // The verdict is honest: not conformant, and it says the failure was waived.
  expect(report.conformance).toMatchObject({ conformant: false, outcome: 'not-conformant' });
  expect(report.conformance.failing).toEqual(['success.200.post']);
  expect(report.conformance.statement).toBe('Not conformant: 1 MUST rule fails (1 waived)');
  expect(report.counts.MUST.fail).toBe(1);
  expect(report.gate).toMatchObject({
    passed: true,
    blocking: [],
    counts: { failing: 1, waived: 1, known: 0, unaccepted: 0, stale: 0, expired: 0 },
  });
  expect(report.gate?.statement).toBe('Gate passed: 1 failing rule accepted (1 waived)');
  expect(report.waivers?.entries).toEqual([
    {
      rule: 'success.200.post',
      reason: WAIVE_POST.reason,
      until: '2026-12-31',
      ticket: 'API-1234',
      state: 'applied',
    },
  ]);
});

test('the until day itself still holds; the day after, the waiver has expired and fails the gate with its reason', () => {
  const lastDay = gatedReport({ ...FAIL_POST, waivers: [WAIVE_POST], today: '2026-12-31' });
  expect(lastDay.gate?.passed).toBe(true);

  const after = gatedReport({ ...FAIL_POST, waivers: [WAIVE_POST], today: '2027-01-01' });
  expect(schemaErrors(after)).toEqual([]);
  expect(after.gate?.passed).toBe(false);
  expect(after.gate?.blocking).toEqual([
    'waiver for success.200.post expired on 2026-12-31: POST answers 201; 200 ships in release 4.2',
  ]);
  expect(after.waivers?.entries[0]?.state).toBe('expired');
  expect(after.rules.find((r) => r.id === 'success.200.post')?.waiver).toBeUndefined();
  expect(after.conformance.statement).toBe('Not conformant: 1 MUST rule fails');
});

test('an expired waiver fails the gate even when its rule passes now', () => {
  const report = gatedReport({ waivers: [{ ...WAIVE_POST, until: '2026-11-01' }] });
  expect(report.gate?.passed).toBe(false);
  expect(report.gate?.blocking).toEqual([
    expect.stringMatching(/^waiver for success\.200\.post expired on 2026-11-01: /),
  ]);
});

test('a waiver whose rule passes is stale: reported, the gate passes; --strict-waivers fails on it', () => {
  const report = gatedReport({ waivers: [WAIVE_POST] });
  expect(report.waivers?.entries[0]).toMatchObject({
    state: 'stale',
    note: 'the rule passes now: remove the waiver',
  });
  expect(report.gate).toMatchObject({ passed: true, counts: { stale: 1 } });

  const strict = gatedReport({ waivers: [WAIVE_POST], strictWaivers: true });
  expect(strict.gate?.passed).toBe(false);
  expect(strict.gate?.blocking).toEqual([
    'waiver for success.200.post is stale (--strict-waivers): the rule passes now: remove the waiver',
  ]);
});

test('a waiver never turns a skipped rule into anything else: it stays skipped, and the waiver is stale', () => {
  const report = gatedReport({
    outcomes: { 'ratelimit.429.exceeded': 'skip' },
    waivers: [{ rule: 'ratelimit.429.exceeded', reason: 'no limiter yet', until: '2026-12-31' }],
  });
  const rule = report.rules.find((r) => r.id === 'ratelimit.429.exceeded');
  expect(rule?.verdict).toBe('skip');
  expect(rule?.waiver).toBeUndefined();
  expect(report.waivers?.entries[0]?.state).toBe('stale');
  expect(report.waivers?.entries[0]?.note).toContain('a waiver never turns a skip into a pass');
  expect(report.gate?.counts.waived).toBe(0);
});

test('an endpoint waiver covers failures on its path (under the base path) only; one outside it still fails the gate', () => {
  const both = {
    outcomes: { 'success.200.post': 'fail' },
    evidence: {
      'success.200.post': [
        evidenceAt('success.200.post', 'POST', '/users'),
        evidenceAt('success.200.post', 'POST', '/orders/7'),
      ],
    },
  } as const;
  const one = gatedReport({ ...both, waivers: [{ ...WAIVE_POST, endpoint: '/users' }] });
  expect(one.rules.find((r) => r.id === 'success.200.post')?.waiver).toBeUndefined();
  expect(one.gate?.passed).toBe(false);
  expect(one.gate?.blocking).toEqual(['success.200.post fails']);
  expect(one.waivers?.entries[0]).toMatchObject({ state: 'applied' });
  expect(one.waivers?.entries[0]?.note).toContain('still failing: POST http://127.0.0.1:8080/api/orders/7');

  const all = gatedReport({
    ...both,
    waivers: [
      { ...WAIVE_POST, endpoint: '/users' },
      { ...WAIVE_POST, endpoint: '/orders/*' },
    ],
  });
  expect(all.rules.find((r) => r.id === 'success.200.post')?.waiver?.endpoint).toBe('/users');
  expect(all.gate?.passed).toBe(true);

  const elsewhere = gatedReport({ ...FAIL_POST, waivers: [{ ...WAIVE_POST, endpoint: '/admin' }] });
  expect(elsewhere.gate?.passed).toBe(false);
  expect(elsewhere.waivers?.entries[0]).toMatchObject({ state: 'stale' });
});

test('no waiver accepts what fails the run outside the rules (a run that did not complete)', () => {
  const report = gatedReport({ ...FAIL_POST, waivers: [WAIVE_POST], runErrors: ['global setup failed'] });
  expect(report.gate?.passed).toBe(false);
  expect(report.gate?.blocking).toEqual(['the run did not complete (global setup failed)']);
});

test('a failing rule without a waiver fails the gate, named', () => {
  const report = gatedReport({
    outcomes: { 'success.200.post': 'fail', 'success.200.delete': 'fail' },
    waivers: [WAIVE_POST],
  });
  expect(report.gate?.passed).toBe(false);
  expect(report.gate?.blocking).toEqual(['success.200.delete fails']);
  expect(report.gate?.statement).toBe('Gate failed: success.200.delete fails');
  expect(report.conformance.statement).toBe('Not conformant: 2 MUST rules fail (1 waived)');
});
