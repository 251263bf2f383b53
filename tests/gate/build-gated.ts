/**
 * Reports built in-process with a gate (waivers, baseline) over hand-made collected tests: the gate's rules
 * tested without Playwright. Five MUST rules and a SHOULD one; each test says which fail, skip or pass.
 */

import { buildReport } from '../../specs/report/build.ts';
import type { CollectedTest } from '../../specs/report/collect.ts';
import type { GateInput } from '../../specs/report/gate/apply.ts';
import type { Baseline } from '../../specs/report/gate/baseline-file.ts';
import type { Waiver } from '../../specs/report/gate/waiver-file.ts';
import type { ConformanceReport } from '../../specs/report/model.ts';
import { Scrubber } from '../../specs/report/scrub.ts';
import type { Rule } from '../../specs/rules/types.ts';
import { rule } from '../report/synthetic.ts';

export const CATALOGUE: readonly Rule[] = [
  rule('success.200.post', 'MUST', [200]),
  rule('success.200.put', 'MUST', [200]),
  rule('success.200.delete', 'MUST', [200]),
  rule('auth.401.missing', 'MUST', [401]),
  rule('ratelimit.429.exceeded', 'MUST', [429]),
  rule('server.500.no-stack', 'SHOULD', [500]),
];
export const IDS = CATALOGUE.map((r) => r.id);

type Outcome = 'pass' | 'fail' | 'skip';

/** Evidence of a failing request to `path` on http://127.0.0.1:8080/api. */
export function evidenceAt(ruleId: string, method: string, path: string) {
  return {
    rule: ruleId,
    expected: 'status 200',
    actual: 'status 201',
    request: { method, url: `http://127.0.0.1:8080/api${path}`, headers: {} },
    response: { status: 201, headers: {}, body: '{}' },
    replay: `curl -i -sS -X ${method} 'http://127.0.0.1:8080/api${path}'`,
  };
}

function collected(id: string, outcome: Outcome, evidence: readonly unknown[]): CollectedTest {
  return {
    ruleIds: [id],
    title: `check of ${id}`,
    location: 'conformance/x.spec.ts:1',
    outcome: outcome === 'pass' ? 'passed' : outcome === 'fail' ? 'failed' : 'skipped',
    durationMs: 1,
    attempts: 1,
    warnings: [],
    observations: [],
    evidence: outcome === 'fail' ? evidence : [],
    causes: [],
    ...(outcome === 'fail' ? { error: `RuleViolation: [${id}] expected status 200, got 201` } : {}),
    ...(outcome === 'skip' ? { skipReason: 'profile lacks rateLimit' } : {}),
  };
}

export interface GatedOptions {
  /** Outcome per rule id; rules not named pass. */
  readonly outcomes?: Readonly<Record<string, Outcome>>;
  /** Evidence per failing rule id; default one POST /users. */
  readonly evidence?: Readonly<Record<string, readonly unknown[]>>;
  readonly waivers?: readonly Waiver[];
  readonly strictWaivers?: boolean;
  readonly today?: string;
  readonly baseline?: Baseline;
  readonly catalogueVersion?: string;
  readonly runErrors?: readonly string[];
}

export function gatedReport(options: GatedOptions): ConformanceReport {
  const tests = CATALOGUE.map((r) =>
    collected(
      r.id,
      options.outcomes?.[r.id] ?? 'pass',
      options.evidence?.[r.id] ?? [evidenceAt(r.id, 'POST', '/users')],
    ),
  );
  const version = options.catalogueVersion ?? '1.4.0';
  const gate: Omit<GateInput, 'runReasons'> = {
    basePath: '/api',
    ...(options.waivers
      ? {
          waivers: {
            source: 'waivers.json',
            entries: options.waivers,
            strict: options.strictWaivers ?? false,
            today: options.today ?? '2026-11-27',
          },
        }
      : {}),
    ...(options.baseline
      ? { baseline: { source: 'baseline.json', report: options.baseline, catalogueVersion: version } }
      : {}),
  };
  return buildReport({
    catalogue: { rules: CATALOGUE, version },
    tests,
    suiteVersion: '0.0.0-test',
    playwrightVersion: '1.65.1',
    baseUrl: 'http://127.0.0.1:8080/api',
    bundledMock: false,
    profile: null,
    run: {
      startedAt: new Date('2026-11-27T09:00:00Z'),
      durationMs: 1000,
      seed: 1,
      strict: false,
      shard: null,
      merged: false,
      status: 'failed',
      errors: options.runErrors ?? [],
    },
    scrub: new Scrubber([]),
    ...(options.waivers || options.baseline ? { gate } : {}),
  });
}

/** A baseline as an earlier run's report gives it: every catalogue rule passing unless named. */
export function baselineOf(
  verdicts: Readonly<Record<string, Baseline['rules'][number]['verdict']>>,
  catalogueVersion = '1.4.0',
  ids: readonly string[] = IDS,
): Baseline {
  return {
    catalogueVersion,
    startedAt: '2026-11-20T09:00:00.000Z',
    rules: ids.map((id) => ({
      id,
      level: id === 'server.500.no-stack' ? 'SHOULD' : 'MUST',
      verdict: verdicts[id] ?? 'pass',
    })),
  };
}

export const WAIVE_POST: Waiver = {
  rule: 'success.200.post',
  reason: 'POST answers 201; 200 ships in release 4.2',
  until: '2026-12-31',
  ticket: 'API-1234',
};
