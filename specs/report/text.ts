/**
 * The short human summary printed at the end of a run (terminal, CI log): the verdict, counts per
 * level, the rules not checked grouped by why, the failing rule ids with why, and where the full report is.
 */

import path from 'node:path';
import { IMPACT_TITLES } from '../rules/types.ts';
import { acceptanceTag, baselineSection, waiversSection } from './gate/lines.ts';
import { type ConformanceReport, LEVELS, type Outcome, type RuleReport } from './model.ts';
import { outcomeOf } from './outcome.ts';
import { politenessLine } from './politeness.ts';

export interface TextOptions {
  /** Where Playwright's JUnit reporter wrote junit.xml, if it did. */
  readonly junitFile?: string;
  /** ANSI colours on the verdict line (see useColor). */
  readonly color?: boolean;
}

/** The verdict line's mark and colour (SGR codes): a partial run never looks like a full one. */
const VERDICT_STYLE: Readonly<Record<Outcome, { mark: string; sgr: string }>> = {
  conformant: { mark: '✔', sgr: '32' },
  partial: { mark: '◐', sgr: '33' },
  'not-conformant': { mark: '✘', sgr: '31' },
};

/** Colour when the stream is a terminal, unless NO_COLOR is set; FORCE_COLOR (not '0') forces it. */
export function useColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '') return env.FORCE_COLOR !== '0';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true;
}

const IDS_PER_REASON = 8;

/** Rules not checked (skipped or not run), grouped by their reason, most rules first. */
function uncheckedByReason(rules: readonly RuleReport[]): string[] {
  const groups = new Map<string, RuleReport[]>();
  for (const rule of rules) {
    if (rule.verdict !== 'skip' && rule.verdict !== 'not-run') continue;
    // Stopped by a failure: listed under that failure's finding (`stops:`), one cause (issue #67).
    if (rule.causedBy?.length) continue;
    const reason = rule.reason ?? (rule.verdict === 'skip' ? 'skipped' : 'not run');
    groups.set(reason, [...(groups.get(reason) ?? []), rule]);
  }
  if (groups.size === 0) return [];
  const out = ['Not checked, by reason:'];
  for (const [reason, group] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    const musts = group.filter((r) => r.level === 'MUST').length;
    const ids = group.slice(0, IDS_PER_REASON).map((r) => r.id);
    const more = group.length > IDS_PER_REASON ? ` … and ${group.length - IDS_PER_REASON} more` : '';
    out.push(`  ${reason} — ${group.length} rule${group.length === 1 ? '' : 's'}, ${musts} MUST:`);
    out.push(`    ${ids.join(', ')}${more}`);
  }
  return out;
}

/** A path as a person would type it from here: relative below the working directory, else absolute. */
export function displayPath(file: string, cwd: string = process.cwd()): string {
  const relative = path.relative(cwd, file);
  if (relative === '') return '.';
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

function line(rule: RuleReport, mark: string): string {
  return `  ${mark} ${rule.id} [${rule.level}]${acceptanceTag(rule)}${rule.reason ? ` — ${rule.reason}` : ''}`;
}

/** What the run judged the target as, and how it differs from the seed (issue #66). */
function declaredLines(report: ConformanceReport): string[] {
  const d = report.target.declaration;
  if (!d) return [];
  const out = [`Judged as: ${d.class}`];
  if (d.deviations.length)
    out.push(`Declared deviations from the seed: ${d.deviations.map((x) => x.text).join('; ')}`);
  const ruledOut = report.rules.filter((r) => r.verdict === 'not-applicable');
  if (ruledOut.length) {
    const musts = ruledOut.filter((r) => r.level === 'MUST').length;
    out.push(
      `Not applicable to the declared interface: ${ruledOut.length} rule${ruledOut.length === 1 ? '' : 's'}, ${musts} MUST (listed in the report with the declaration that rules each out)`,
    );
  }
  return out;
}

/** Failures, then warnings, worst impact first, each with what to change (report `findings`). */
function findingLines(report: ConformanceReport, verdict: 'fail' | 'warn', mark: string): string[] {
  const byId = new Map(report.rules.map((r) => [r.id, r]));
  const out: string[] = [];
  let impact: string | undefined;
  for (const finding of report.findings ?? []) {
    const rule = byId.get(finding.rule);
    if (finding.verdict !== verdict || !rule) continue;
    if (finding.impact !== impact) {
      impact = finding.impact;
      out.push(` ${IMPACT_TITLES[finding.impact]}:`);
    }
    out.push(line(rule, mark), `      fix: ${finding.remedy}`);
    if (finding.consequences?.length) out.push(`      stops: ${finding.consequences.join(', ')}`);
  }
  return out;
}

/** The diff against the baseline, then the waivers: first after the verdict, as in summary.md. */
function gateSections(report: ConformanceReport): string[] {
  const out: string[] = [];
  for (const section of [baselineSection(report), waiversSection(report)]) {
    if (!section) continue;
    out.push(`${section.title}:`, ...section.lines.map((l) => `  ${l}`));
  }
  if (report.gate) out.push(`${report.gate.passed ? '✔' : '✘'} ${report.gate.statement}`);
  return out;
}

export function renderText(report: ConformanceReport, reportDir: string, options: TextOptions = {}): string {
  const out: string[] = [];
  const profile = report.target.profile ? ` · profile "${report.target.profile.name}"` : '';
  out.push(
    `gatecheck ${report.suite.version} · catalogue ${report.catalogue.version} · target ${report.target.baseUrl}${profile}`,
  );
  const style = VERDICT_STYLE[outcomeOf(report.conformance)];
  const verdict = `${style.mark} ${report.conformance.statement}`;
  out.push(options.color ? `\x1b[${style.sgr}m${verdict}\x1b[0m` : verdict);
  out.push(...declaredLines(report));
  out.push(...gateSections(report));
  for (const level of LEVELS) {
    const c = report.counts[level];
    if (c.total === 0) continue;
    out.push(
      `  ${level.padEnd(6)} ${c.pass} pass · ${c.fail} fail · ${c.warn} warn · ${c.skip} skip · ${c['not-run']} not run · ${c['not-applicable'] ?? 0} not applicable`,
    );
  }
  out.push(...uncheckedByReason(report.rules));
  const failing = findingLines(report, 'fail', '✘');
  if (failing.length) out.push('Failing rules, worst impact first:', ...failing);
  const warned = findingLines(report, 'warn', '!');
  if (warned.length) out.push('Warnings:', ...warned);
  // A report written before findings existed (schema < 1.3.0): its failures by id, as then.
  if (!report.findings) {
    const old = report.rules.filter((r) => r.verdict === 'fail');
    if (old.length) out.push('Failing rules:', ...old.map((r) => line(r, '✘')));
  }
  const broken = report.unattributed.filter((t) => t.outcome === 'failed');
  if (broken.length) {
    out.push('Suite tests outside any rule that failed:');
    for (const t of broken) out.push(`  ✘ ${t.title} (${t.location})`);
  }
  const polite = politenessLine(report);
  if (polite) out.push(`Politeness: ${polite}`);
  for (const error of report.run.errors) out.push(`Run error: ${error.split('\n')[0]}`);
  const also = ['conformance.json', 'summary.md'];
  let junit = '';
  if (options.junitFile) {
    const inDir = path.resolve(path.dirname(options.junitFile)) === path.resolve(reportDir);
    if (inDir) also.push(path.basename(options.junitFile));
    else junit = `; JUnit: ${displayPath(options.junitFile)}`;
  }
  out.push(`Report: ${reportDir}/conformance.html (also ${also.join(', ')})${junit}`);
  return `${out.join('\n')}\n`;
}
