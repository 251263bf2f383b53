/**
 * The verdict a statement may attest, recomputed from its rule list: each rule's level from the rule
 * catalogue (never from what was signed, when the catalogue is the installed one), the per-level counts, and
 * the outcome with the reporter's own rules (specs/report/aggregate.ts conclude(): MUST fails the run, SHOULD
 * under --strict, unchecked gated rules make it partial, a failed suite test or an incomplete run makes it
 * not conformant). Only id, level and verdict go in: a rule that failed is a failure whatever else the report
 * says of it (a waiver, a baseline), so a run with a failed gated rule is never attested as conformant.
 */
import { conclude, countVerdicts } from '../../specs/report/aggregate.ts';
import type { ConformanceReport, RuleReport, Verdict } from '../../specs/report/model.ts';
import type { Level } from '../../specs/rules/types.ts';

export interface Recomputed {
  readonly conformance: ConformanceReport['conformance'];
  readonly counts: ConformanceReport['counts'];
}

/** Rule entries as the reporter writes them, with nothing but what decides the verdict. */
function bare(id: string, level: Level, verdict: Verdict): RuleReport {
  return {
    id,
    level,
    verdict,
    requirement: '',
    refs: [],
    statuses: [],
    inCatalogue: true,
    observations: [],
    tests: [],
    evidence: [],
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
  report: Pick<ConformanceReport, 'run' | 'unattributed'>,
): Recomputed {
  const entries = rules.map(({ id, verdict }) => {
    const level = levelOf(id);
    if (level === undefined) throw new TypeError(`no level for rule ${id}`);
    return bare(id, level, verdict);
  });
  return {
    conformance: conclude(entries, report.unattributed, report.run),
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
