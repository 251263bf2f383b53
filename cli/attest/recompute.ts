/**
 * The verdict a statement may attest, recomputed from its rule list: each rule's level from the rule
 * catalogue (never from what was signed, when the catalogue is the installed one), the per-level counts, and
 * the outcome with the reporter's own rules (specs/report/aggregate.ts conclude(): MUST fails the run, SHOULD
 * under --strict, unchecked gated rules make it partial, a failed suite test or an incomplete run makes it
 * not conformant). Each rule's level is the catalogue's and its verdict the signed one; the report's other
 * members of the rule (a waiver, a baseline marker) come along only for the sentence's wording ("2 MUST rules
 * fail (1 waived)"). A rule that failed is a failure whatever else is said of it: outcomeHolds() checks that
 * no verdict with a failed rule comes out conformant, whatever conclude() becomes.
 */
import { conclude, countVerdicts } from '../../specs/report/aggregate.ts';
import type { ConformanceReport, DeviationReport, RuleReport, Verdict } from '../../specs/report/model.ts';
import type { Level } from '../../specs/rules/types.ts';

export interface Recomputed {
  readonly conformance: ConformanceReport['conformance'];
  readonly counts: ConformanceReport['counts'];
}

/** A rule entry for conclude(): the report's own (for its wording), with the catalogue's level and the signed verdict. */
function entry(id: string, level: Level, verdict: Verdict, reported: RuleReport | undefined): RuleReport {
  return {
    ...(reported ?? {
      requirement: '',
      impact: 'status' as const,
      remedy: '',
      refs: [],
      statuses: [],
      inCatalogue: true,
      observations: [],
      tests: [],
      evidence: [],
    }),
    id,
    level,
    verdict,
  };
}

/**
 * `levelOf` gives each rule id its level; undefined for an id it does not know (the caller has checked the
 * ids already, so that is a bug). `report` gives the run's facts the rules do not: its status, errors,
 * strictness, coverage gate and the tests outside any rule.
 */
export function recompute(
  rules: readonly { readonly id: string; readonly verdict: Verdict }[],
  levelOf: (id: string) => Level | undefined,
  report: Pick<ConformanceReport, 'run' | 'unattributed' | 'rules'>,
  deviations: readonly DeviationReport[] = [],
): Recomputed {
  const reported = new Map(report.rules.map((r) => [r.id, r]));
  const entries = rules.map(({ id, verdict }) => {
    const level = levelOf(id);
    if (level === undefined) throw new TypeError(`no level for rule ${id}`);
    return entry(id, level, verdict, reported.get(id));
  });
  return {
    conformance: conclude(entries, report.unattributed, report.run, deviations),
    counts: countVerdicts(entries),
  };
}

/** The outcome a verdict sentence states by its first words (conclude()'s three openings). */
export function outcomeOfSentence(sentence: string): ConformanceReport['conformance']['outcome'] {
  if (sentence.startsWith('Not conformant')) return 'not-conformant';
  if (sentence.startsWith('Partial')) return 'partial';
  if (sentence.startsWith('Conformant')) return 'conformant';
  return undefined;
}

/**
 * The invariant the recomputation must keep, checked apart from conclude(): a run in which any rule failed is
 * not conformant (a waived or baseline-known failure included). A cause when it is broken.
 */
export function outcomeHolds(
  rules: readonly { readonly id: string; readonly verdict: Verdict }[],
  recomputed: Recomputed,
): string | undefined {
  const failed = rules.filter((r) => r.verdict === 'fail').map((r) => r.id);
  if (failed.length === 0 || !recomputed.conformance.conformant) return undefined;
  return `verdict: ${failed.length} rule${failed.length === 1 ? '' : 's'} failed (${failed.slice(0, 3).join(', ')}${failed.length > 3 ? ', …' : ''}) yet the verdict computed is conformant: a failed rule is a failure, waived or not`;
}
