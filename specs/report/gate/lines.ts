/**
 * The gate's sections as plain lines, shared by the terminal summary and summary.md: the diff against the
 * baseline (first: it is what a reviewer of the gate reads), the waivers with their last day and state, and
 * the gate's sentence. The caller escapes for its format.
 */

import type { ConformanceReport, RuleReport } from '../model.ts';

/** " (waived until 2026-12-31)", " (known)", " (worse than the baseline)" after a failing rule's id. */
export function acceptanceTag(rule: RuleReport): string {
  const tags: string[] = [];
  if (rule.waiver) tags.push(`waived until ${rule.waiver.until}`);
  if (rule.baseline?.change === 'known') tags.push('known from the baseline');
  if (rule.baseline?.change === 'worse') tags.push('worse than the baseline');
  if (rule.baseline?.change === 'new') tags.push('new rule');
  return tags.length ? ` (${tags.join(', ')})` : '';
}

export interface Section {
  readonly title: string;
  readonly lines: readonly string[];
}

function listed(label: string, ids: readonly string[]): string {
  return `${label} (${ids.length})${ids.length ? `: ${ids.join(', ')}` : ''}`;
}

export function baselineSection(report: ConformanceReport): Section | undefined {
  const b = report.baseline;
  if (!b) return undefined;
  const catalogue =
    b.catalogueVersion === report.catalogue.version
      ? `catalogue ${b.catalogueVersion}`
      : `catalogue ${b.catalogueVersion}, this run ${report.catalogue.version}: compared rule by rule`;
  return {
    title: `Against the baseline ${b.source} (${catalogue}; run of ${b.startedAt})`,
    lines: [
      `worse (${b.worse.length})${b.worse.length ? `: ${b.worse.join('; ')}` : ''}`,
      listed('known, still failing', b.known),
      listed('fixed, passing now', b.fixed),
      ...(b.stopped?.length
        ? [`stopped by another rule's failure (${b.stopped.length}): ${b.stopped.join('; ')}`]
        : []),
      ...(b.newRules.length ? [listed('new rules', b.newRules)] : []),
      ...(b.removedRules.length
        ? [listed('rules the baseline had and this catalogue lacks', b.removedRules)]
        : []),
    ],
  };
}

export function waiversSection(report: ConformanceReport): Section | undefined {
  const w = report.waivers;
  if (!w) return undefined;
  return {
    title: `Waivers ${w.source} (today ${w.today}${w.strict ? ', --strict-waivers' : ''})`,
    lines: w.entries.map(
      (e) =>
        `${e.state.padEnd(7)} ${e.rule}${e.endpoint ? ` ${e.endpoint}` : ''} until ${e.until}` +
        `${e.ticket ? ` [${e.ticket}]` : ''}: ${e.reason}${e.matched?.length ? ` — matched ${e.matched.join(', ')}` : ''}` +
        `${e.note && e.state !== 'expired' ? ` — ${e.note}` : ''}`,
    ),
  };
}
