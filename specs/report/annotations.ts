/**
 * GitHub Actions annotations (workflow commands, `::error title=<rule>::…`) of a report: what the gate says,
 * in every route — the CLI prints them after its run, the conformance reporter in a user's own Playwright
 * config, `gatecheck gate` for a report read back (issue #67).
 */
import { runReasons } from './aggregate.ts';
import type { ConformanceReport, GateReason, RuleReport } from './model.ts';

/** Workflow command data: %, CR and LF escaped (GitHub's toCommandValue / escapeData). */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Workflow command property values: also ':' and ','. */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function accepted(rule: RuleReport): string | undefined {
  if (rule.waiver) return `waived until ${rule.waiver.until}: ${rule.waiver.reason}`;
  if (rule.baseline?.change === 'known') return 'known: failing in the baseline too';
  return undefined;
}

function annotation(kind: 'error' | 'warning', title: string, lines: readonly string[]): string {
  return `::${kind} title=${escapeProperty(title)}::${escapeData(lines.join('\n'))}`;
}

/** What its failure stopped (issue #67) and its replay line. */
function context(rule: RuleReport | undefined, report: ConformanceReport): string[] {
  if (!rule) return [];
  const stopped = report.rules.filter((r) => r.causedBy?.includes(rule.id)).map((r) => r.id);
  const replay = rule.evidence.find((e) => e.replay)?.replay;
  return [
    ...(stopped.length ? [`it stopped: ${stopped.join(', ')}`] : []),
    ...(replay ? [`replay: ${replay}`] : []),
  ];
}

const failureLine = (rule: RuleReport, note = '') =>
  `${rule.level} rule ${rule.id} fails${note}: ${rule.reason ?? rule.requirement}`;

/**
 * The annotations say what the gate says (issue #67): one `::error` for exactly each reason the gate failed
 * (a failure not accepted, a rule worse than the baseline, an expired waiver, a MUST rule that stopped running,
 * a reason outside the rules), and one `::warning` for each failure it accepted (waived or known), each with
 * its replay line. Without waivers or a baseline the verdict is the gate: each failing rule, and each reason
 * outside the rules, is an `::error`.
 */
export function githubAnnotations(report: ConformanceReport): string[] {
  const byId = new Map(report.rules.map((r) => [r.id, r]));
  const failing = report.rules.filter((r) => r.verdict === 'fail');
  if (!report.gate) {
    const outside = runReasons(report.rules, report.unattributed, report.run);
    return [
      ...failing.map((rule) => annotation('error', rule.id, [failureLine(rule), ...context(rule, report)])),
      ...outside.map((reason) => annotation('error', 'gatecheck', [reason])),
    ];
  }
  const reasons: readonly GateReason[] =
    report.gate.reasons ?? report.gate.blocking.map((text) => ({ kind: 'run', text }));
  const errors = reasons.map((r) =>
    annotation('error', r.rule ?? 'gatecheck gate', [
      `Gate failed: ${r.text}`,
      ...context(r.rule === undefined ? undefined : byId.get(r.rule), report),
    ]),
  );
  const blamed = new Set(reasons.flatMap((r) => (r.rule === undefined ? [] : [r.rule])));
  const warnings = failing
    .filter((rule) => accepted(rule) !== undefined && !blamed.has(rule.id))
    .map((rule) =>
      annotation('warning', rule.id, [
        failureLine(rule, ` (accepted by the gate: ${accepted(rule)})`),
        ...context(rule, report),
      ]),
    );
  return [...errors, ...warnings];
}
