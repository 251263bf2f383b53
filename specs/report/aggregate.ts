/**
 * From tests to verdicts. A rule's verdict aggregates every test that points at it (docs/design.md "The suite's
 * rules"): MUST fails the run, SHOULD warns unless strict, INFO only reports. Pure: no I/O, no Playwright.
 */

import type { Evidence } from '../lib/evidence.ts';
import { idPattern } from '../rules/id-pattern.ts';
import type { Level, Rule } from '../rules/types.ts';
import type { CollectedTest } from './collect.ts';
import {
  type ConformanceReport,
  type DeviationReport,
  LEVELS,
  type RuleReport,
  type TestReport,
  type Verdict,
  type VerdictCounts,
} from './model.ts';
import type { Scrubber } from './scrub.ts';

export interface AggregateInput {
  readonly catalogue: readonly Rule[];
  readonly tests: readonly CollectedTest[];
  readonly strict: boolean;
  /** Why a catalogue rule with no test has none: filtered out, in another shard, or not implemented. */
  readonly notRunReason: string;
  readonly scrub: Scrubber;
  /** Rules the profile's declaration rules out, with the reason (specs/declaration/applicability.ts). */
  readonly notApplicable?: ReadonlyMap<string, string>;
}

export interface Aggregate {
  readonly rules: readonly RuleReport[];
  readonly unattributed: readonly TestReport[];
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim().length > 0) ?? text;
  return line.trim().slice(0, 300);
}

function asString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value);
}

function asHeaders(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) out[k] = asString(v);
  }
  return out;
}

/** Coerces an attachment into the Evidence shape, so a half-filled one still renders. */
function toEvidence(raw: unknown, ruleId: string): Evidence {
  const r = (raw && typeof raw === 'object' ? raw : { actual: asString(raw) }) as Record<string, unknown>;
  const req = (r.request && typeof r.request === 'object' ? r.request : {}) as Record<string, unknown>;
  const res =
    r.response && typeof r.response === 'object' ? (r.response as Record<string, unknown>) : undefined;
  return {
    rule: typeof r.rule === 'string' ? r.rule : ruleId,
    expected: asString(r.expected),
    actual: asString(r.actual ?? r.unparsed),
    request: {
      method: asString(req.method),
      url: asString(req.url),
      headers: asHeaders(req.headers),
      ...(req.body !== undefined ? { body: asString(req.body) } : {}),
    },
    ...(res
      ? {
          response: {
            status: typeof res.status === 'number' ? res.status : Number(res.status) || 0,
            headers: asHeaders(res.headers),
            body: asString(res.body).slice(0, 2048),
          },
        }
      : {}),
    replay: asString(r.replay),
  };
}

function evidenceOf(test: CollectedTest, ruleId: string): Evidence[] {
  const out: Evidence[] = [];
  for (const item of test.evidence) {
    for (const one of Array.isArray(item) ? item : [item]) {
      const evidence = toEvidence(one, ruleId);
      // A test checking several rules attaches evidence per rule; keep the ones for this rule.
      if (evidence.rule === ruleId || !test.ruleIds.includes(evidence.rule)) out.push(evidence);
    }
  }
  return out;
}

function testReport(test: CollectedTest, scrub: Scrubber): TestReport {
  return {
    title: scrub.text(test.title),
    location: test.location,
    outcome: test.outcome,
    durationMs: Math.round(test.durationMs),
    attempts: test.attempts,
    ...(test.error ? { error: scrub.text(test.error) } : {}),
    ...(test.warnings.length ? { warnings: test.warnings.map((w) => scrub.text(w)) } : {}),
    ...(test.skipReason ? { skipReason: scrub.text(test.skipReason) } : {}),
    ...(test.observations.length ? { observations: test.observations.map((o) => scrub.text(o)) } : {}),
    ...(test.causes.length ? { causes: [...test.causes] } : {}),
  };
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

/** The verdict and its one-line reason, from the tests of one rule. */
export function verdictOf(
  level: Level,
  tests: readonly CollectedTest[],
  strict: boolean,
  evidence: readonly Evidence[],
  notRunReason: string,
): { verdict: Verdict; reason?: string } {
  if (tests.length === 0) return { verdict: 'not-run', reason: notRunReason };

  const failed = tests.filter((t) => t.outcome === 'failed');
  if (failed.length > 0) {
    const verdict: Verdict = level === 'MUST' || (level === 'SHOULD' && strict) ? 'fail' : 'warn';
    const withEvidence = evidence.find((e) => e.expected || e.actual);
    const why = withEvidence
      ? `expected ${withEvidence.expected || '(unstated)'}, got ${withEvidence.actual || '(unstated)'}`
      : firstLine(failed[0]?.error ?? 'test failed without a message');
    const prefix = level === 'INFO' ? 'the observation could not be made: ' : '';
    const count = failed.length > 1 ? ` (${failed.length} of ${tests.length} checks failed)` : '';
    return { verdict, reason: `${prefix}${why}${count}` };
  }

  const warnings = tests.flatMap((t) => t.warnings);
  if (warnings.length > 0) {
    // Under --strict a SHOULD check fails outright; a warning that still arrives is treated the same way.
    const verdict: Verdict = level === 'SHOULD' && strict ? 'fail' : 'warn';
    return { verdict, reason: firstLine(warnings[0] ?? '') };
  }

  const ran = tests.filter((t) => t.outcome !== 'skipped');
  if (ran.length === 0) {
    return { verdict: 'skip', reason: unique(tests.map((t) => t.skipReason ?? 'skipped')).join('; ') };
  }

  const notes: string[] = [];
  const skipped = tests.length - ran.length;
  if (skipped > 0) {
    const reasons = unique(
      tests.filter((t) => t.outcome === 'skipped').map((t) => t.skipReason ?? 'skipped'),
    );
    notes.push(`${skipped} of ${tests.length} checks skipped: ${reasons.join('; ')}`);
  }
  const flaky = ran.filter((t) => t.outcome === 'flaky').length;
  if (flaky > 0) notes.push(`${flaky} check(s) passed only on retry`);
  return notes.length ? { verdict: 'pass', reason: notes.join('; ') } : { verdict: 'pass' };
}

/**
 * A rule the declaration rules out and that no test of which ran is not applicable (issue #66): its reason
 * names the declaration. A rule that ran keeps the verdict its tests earned, applicable or not.
 */
function applicable(
  judged: { verdict: Verdict; reason?: string },
  ruledOut: string | undefined,
): { verdict: Verdict; reason?: string } {
  if (ruledOut === undefined || (judged.verdict !== 'skip' && judged.verdict !== 'not-run')) return judged;
  return { verdict: 'not-applicable', reason: `not applicable: ${ruledOut}` };
}

export function aggregate(input: AggregateInput): Aggregate {
  const { catalogue, tests, strict, scrub } = input;
  const byRule = new Map<string, CollectedTest[]>();
  const unattributed: CollectedTest[] = [];
  for (const test of tests) {
    if (test.ruleIds.length === 0) unattributed.push(test);
    for (const id of test.ruleIds) {
      const list = byRule.get(id) ?? [];
      list.push(test);
      byRule.set(id, list);
    }
  }

  const declared = new Set(catalogue.map((r) => r.id));
  const undeclared = [...byRule.keys()].filter((id) => !declared.has(id)).sort();
  const levelFromTags = (id: string): Level => byRule.get(id)?.find((t) => t.level)?.level ?? 'MUST';

  const rules: RuleReport[] = [];
  const entries: { rule: Rule; inCatalogue: boolean }[] = [
    ...catalogue.map((rule) => ({ rule, inCatalogue: true })),
    ...undeclared.map((id) => ({
      rule: {
        id,
        level: levelFromTags(id),
        requirement: '(not declared in the catalogue)',
        refs: [],
        statuses: [],
        impact: 'status' as const,
        remedy: '(a suite bug: the rule is not declared in the catalogue)',
      },
      inCatalogue: false,
    })),
  ];
  for (const { rule, inCatalogue } of entries) {
    const ruleTests = byRule.get(rule.id) ?? [];
    const evidence = ruleTests.flatMap((t) => evidenceOf(t, rule.id)).map((e) => scrub.deep(e));
    const judged = verdictOf(rule.level, ruleTests, strict, evidence, input.notRunReason);
    const { verdict, reason } = applicable(judged, input.notApplicable?.get(rule.id));
    rules.push({
      id: rule.id,
      level: rule.level,
      requirement: rule.requirement,
      refs: rule.refs.map((r) => ({ spec: r.spec, section: r.section, url: r.url })),
      statuses: [...rule.statuses],
      inCatalogue,
      impact: rule.impact,
      remedy: rule.remedy,
      ...(rule.causes?.length ? { causes: rule.causes.map((c) => ({ ...c })) } : {}),
      verdict,
      ...(reason ? { reason: scrub.text(reason) } : {}),
      observations: unique(ruleTests.flatMap((t) => t.observations)).map((o) => scrub.text(o)),
      tests: ruleTests.map((t) => testReport(t, scrub)),
      evidence,
    });
  }
  return { rules: withCauses(rules, byRule), unattributed: unattributed.map((t) => testReport(t, scrub)) };
}

/**
 * Causes, not cascades (issue #67): a skipped rule whose every check named the rules its precondition needed
 * (ANNOTATION.cause) and some of those rules failed in this run is `causedBy` them. A cause that passed says
 * nothing: the skip stays an ordinary one.
 */
function withCauses(
  rules: RuleReport[],
  byRule: ReadonlyMap<string, readonly CollectedTest[]>,
): RuleReport[] {
  const failing = rules.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').map((r) => r.id);
  return rules.map((rule) => {
    if (rule.verdict !== 'skip') return rule;
    const tests = byRule.get(rule.id) ?? [];
    if (tests.length === 0 || tests.some((t) => t.causes.length === 0)) return rule;
    const named = tests.flatMap((t) => t.causes).map(idPattern);
    const causedBy = failing.filter((id) => id !== rule.id && named.some((matches) => matches(id)));
    return causedBy.length ? { ...rule, causedBy } : rule;
  });
}

export function countVerdicts(rules: readonly RuleReport[]): Record<Level, VerdictCounts> {
  const empty = (): VerdictCounts => ({
    pass: 0,
    fail: 0,
    warn: 0,
    skip: 0,
    'not-run': 0,
    'not-applicable': 0,
    total: 0,
  });
  const counts = { MUST: empty(), SHOULD: empty(), INFO: empty() } satisfies Record<Level, VerdictCounts>;
  for (const rule of rules) {
    counts[rule.level][rule.verdict] += 1;
    counts[rule.level].total += 1;
  }
  return counts;
}

/** "2 skipped, 1 not run" for rules that were not checked. */
function uncheckedParts(unchecked: readonly RuleReport[]): string {
  const skipped = unchecked.filter((r) => r.verdict === 'skip').length;
  const notRun = unchecked.length - skipped;
  return [skipped ? `${skipped} skipped` : '', notRun ? `${notRun} not run` : ''].filter(Boolean).join(', ');
}

/**
 * What fails the run outside the rules' verdicts: a suite test outside any rule that failed, a run that did
 * not complete, nothing checked, more MUST rules unchecked than --max-skipped-must allows. No waiver or
 * baseline accepts these (specs/report/gate/apply.ts).
 */
export function runReasons(
  rules: readonly RuleReport[],
  unattributed: readonly TestReport[],
  run: Pick<ConformanceReport['run'], 'status' | 'errors' | 'strict' | 'maxSkippedMust'>,
): string[] {
  const brokenTests = unattributed.filter((t) => t.outcome === 'failed').length;
  const incomplete = run.status === 'timedout' || run.status === 'interrupted' || run.errors.length > 0;
  // A rule another rule's failure stopped is part of that failure's finding, not a coverage gap of its own.
  const isUnchecked = (r: RuleReport) =>
    (r.verdict === 'skip' && !r.causedBy?.length) || r.verdict === 'not-run';
  const mustRules = rules.filter((r) => r.level === 'MUST');
  const mustUnchecked = mustRules.filter(isUnchecked);
  const reasons: string[] = [];
  if (brokenTests) reasons.push(`${plural(brokenTests, 'suite test')} outside any rule failed`);
  if (incomplete) {
    reasons.push(
      run.errors.length
        ? `the run did not complete (${firstLine(run.errors[0] ?? '')})`
        : `the run did not complete (${run.status})`,
    );
  }
  // Coverage required by CI (--max-skipped-must): a MUST rule that did not run proves nothing either way.
  if (run.maxSkippedMust !== undefined && mustUnchecked.length > run.maxSkippedMust) {
    reasons.push(
      `${mustUnchecked.length} of ${mustRules.length} MUST rules not checked (${uncheckedParts(mustUnchecked)}), ` +
        `more than --max-skipped-must ${run.maxSkippedMust} allows`,
    );
  }
  return reasons;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * " (1 waived, 1 known from the baseline)" after "2 MUST rules fail": a failure accepted by the gate is still
 * a failure, and the verdict says which were accepted, read from the rules themselves (their `waiver` and
 * `baseline` members), so anyone recomputing the verdict from the rules list gets the same sentence.
 */
function acceptedPart(failing: readonly RuleReport[]): string {
  const waived = failing.filter((r) => r.waiver).length;
  const known = failing.filter((r) => r.baseline?.change === 'known').length;
  const parts = [waived ? `${waived} waived` : '', known ? `${known} known from the baseline` : ''];
  const said = parts.filter(Boolean);
  return said.length ? ` (${said.join(', ')})` : '';
}

/**
 * What the verdict is relative to, after its first clause: "; 47 rules not applicable to the declared interface;
 * 2 deviations from the seed: POST answers 201 (…), DELETE answers 204 (…)". Empty for the seed's own interface.
 */
function declaredPart(rules: readonly RuleReport[], deviations: readonly DeviationReport[]): string {
  const ruledOut = rules.filter((r) => r.verdict === 'not-applicable').length;
  const parts = [
    ruledOut ? `${plural(ruledOut, 'rule')} not applicable to the declared interface` : '',
    deviations.length
      ? `${plural(deviations.length, 'deviation')} from the seed: ${deviations.map((d) => d.text).join(', ')}`
      : '',
  ].filter(Boolean);
  return parts.length ? `; ${parts.join('; ')}` : '';
}

/** The headline. The CLI's exit code is `conformant ? 0 : 1`, read from conformance.json, unless a gate decides. */
export function conclude(
  rules: readonly RuleReport[],
  unattributed: readonly TestReport[],
  run: Pick<ConformanceReport['run'], 'status' | 'errors' | 'strict' | 'maxSkippedMust'>,
  deviations: readonly DeviationReport[] = [],
): ConformanceReport['conformance'] {
  const failing = rules.filter((r) => r.verdict === 'fail').map((r) => r.id);
  const checked = rules.filter(
    (r) => r.verdict !== 'skip' && r.verdict !== 'not-run' && r.verdict !== 'not-applicable',
  );
  const tail = declaredPart(rules, deviations);
  const isUnchecked = (r: RuleReport) => r.verdict === 'skip' || r.verdict === 'not-run';
  const gated: readonly Level[] = run.strict ? ['MUST', 'SHOULD'] : ['MUST'];
  const unchecked = rules.filter((r) => gated.includes(r.level) && isUnchecked(r));
  const complete = unchecked.length === 0;

  const reasons: string[] = [];
  for (const level of LEVELS) {
    const failed = rules.filter((r) => r.level === level && r.verdict === 'fail');
    if (failed.length)
      reasons.push(
        `${plural(failed.length, `${level} rule`)} ${failed.length === 1 ? 'fails' : 'fail'}${acceptedPart(failed)}`,
      );
  }
  const outside = runReasons(rules, unattributed, run);
  const coverage = outside.filter((r) => r.includes('--max-skipped-must'));
  reasons.push(...outside.filter((r) => !coverage.includes(r)));
  if (checked.length === 0 && reasons.length === 0) reasons.push('no rule was checked');
  reasons.push(...coverage);

  if (reasons.length > 0) {
    return {
      conformant: false,
      outcome: 'not-conformant',
      level: null,
      complete,
      statement: `Not conformant: ${reasons.join('; ')}${tail}`,
      failing,
    };
  }

  // "Conformant at SHOULD level" is only claimed when every SHOULD rule was checked and passed.
  const shouldRules = rules.filter((r) => r.level === 'SHOULD');
  const shouldClean = shouldRules.length > 0 && shouldRules.every((r) => r.verdict === 'pass');
  const level = shouldClean ? 'MUST and SHOULD' : 'MUST';
  const warned = rules.filter((r) => r.level === 'SHOULD' && r.verdict === 'warn').length;
  const warnings = warned ? ` (${plural(warned, 'SHOULD warning')})` : '';
  if (!complete) {
    // Partial: nothing failed, but the run does not show conformance of what it skipped (its own wording,
    // so a run that skipped most rules never reads like a full one).
    const total = rules.filter((r) => gated.includes(r.level)).length;
    return {
      conformant: true,
      outcome: 'partial',
      level,
      complete,
      statement:
        `Partial: no rule fails, but ${unchecked.length} of ${total} ${gated.join('/')} rules were not checked ` +
        `(${uncheckedParts(unchecked)})${warned ? `; ${plural(warned, 'SHOULD warning')}` : ''}${tail}`,
      failing,
    };
  }
  const statement =
    (level === 'MUST' ? 'Conformant at MUST level' : 'Conformant at MUST and SHOULD levels') +
    warnings +
    tail;
  return { conformant: true, outcome: 'conformant', level, complete, statement, failing };
}
