/**
 * Reports built in-process (buildReport over hand-made collected tests), for renderer tests that need
 * no Playwright run: one conformant, one not, both with every verdict represented.
 */

import { buildReport } from '../../specs/report/build.ts';
import type { CollectedTest } from '../../specs/report/collect.ts';
import type { ConformanceReport } from '../../specs/report/model.ts';
import { Scrubber } from '../../specs/report/scrub.ts';
import type { Rule } from '../../specs/rules/types.ts';
import { rule } from './synthetic.ts';

export const SAMPLE_CATALOGUE: readonly Rule[] = [
  rule('success.200.public', 'MUST', [200]),
  rule('auth.401.missing', 'MUST', [401]),
  rule('auth.401.challenge', 'MUST', [401]),
  rule('authz.403.lacking-role', 'MUST', [403]),
  rule('method.405.allow', 'MUST', [405]),
  rule('ratelimit.429.exceeded', 'MUST', [429, 403]),
  rule('bearer.challenge.missing-no-error', 'SHOULD', [401]),
  rule('server.500.no-stack', 'SHOULD', [500]),
  rule('info.order-of-checks', 'INFO', [401, 403, 404, 405]),
];

function collected(
  ruleId: string,
  outcome: CollectedTest['outcome'],
  extra: Partial<CollectedTest> = {},
): CollectedTest {
  return {
    ruleIds: [ruleId],
    title: `check of ${ruleId}`,
    location: 'conformance/sample.spec.ts:1',
    outcome,
    durationMs: 12,
    attempts: 1,
    warnings: [],
    observations: [],
    evidence: [],
    causes: [],
    ...extra,
  };
}

const FAILURE_EVIDENCE = {
  rule: 'authz.403.lacking-role',
  expected: 'status 403 or 404 for the user identity with Bearer',
  actual: 'status 200',
  request: {
    method: 'GET',
    url: 'http://127.0.0.1:8080/admin',
    headers: { authorization: 'Bearer eyJh…[redacted]' },
  },
  response: {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"admin":true,"note":"<script>alert(1)</script>"}',
  },
  replay: "curl -i -sS -X GET 'http://127.0.0.1:8080/admin' -H 'Authorization: Bearer eyJh…[redacted]'",
};

export function sampleReport(conformant: boolean): ConformanceReport {
  const tests: CollectedTest[] = [
    collected('success.200.public', 'passed'),
    collected('auth.401.missing', 'passed'),
    collected('auth.401.challenge', 'passed'),
    conformant
      ? collected('authz.403.lacking-role', 'passed')
      : collected('authz.403.lacking-role', 'failed', {
          error: 'RuleViolation: [authz.403.lacking-role] expected status 403 or 404, got 200',
          evidence: [FAILURE_EVIDENCE],
        }),
    collected('ratelimit.429.exceeded', 'skipped', {
      skipReason: 'profile lacks rateLimit: the limit is not declared',
    }),
    collected('bearer.challenge.missing-no-error', 'passed', {
      warnings: ['[bearer.challenge.missing-no-error] expected no error code; got error="invalid_token"'],
    }),
    collected('server.500.no-stack', 'passed'),
    collected('info.order-of-checks', 'passed', { observations: ['unknown path without credentials → 404'] }),
  ];
  return buildReport({
    catalogue: { rules: SAMPLE_CATALOGUE, version: 'sample-1' },
    tests,
    suiteVersion: '0.0.0-test',
    playwrightVersion: '1.65.1',
    baseUrl: 'http://127.0.0.1:8080',
    bundledMock: false,
    profile: {
      raw: {
        name: 'sample target',
        endpoints: { admin: { path: '/admin', schemes: ['bearer'] } },
        identities: { user: { bearer: 'x' } },
      },
      source: 'sample.profile.json',
    },
    run: {
      startedAt: new Date('2026-01-01T00:00:00Z'),
      durationMs: 1234,
      seed: 42,
      strict: false,
      shard: null,
      merged: false,
      status: conformant ? 'passed' : 'failed',
      errors: [],
    },
    scrub: new Scrubber([]),
  });
}
