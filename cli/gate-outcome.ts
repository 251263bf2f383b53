/**
 * The CI gate at the end of a CLI run: the exit code comes from conformance.json's `gate` when waivers or a
 * baseline were given (else from the verdict, as before), and the verdict is printed beside it, because a gate
 * that passes on waived or known failures does not make the target conformant. Under GitHub Actions each
 * failing rule is also an annotation (workflow commands, `::error title=<rule>::…`).
 */

import type { ConformanceReport, RuleReport } from '../specs/report/model.ts';

/** The exit line's parenthesis for a gated run, and the verdict line printed before it. */
export function gatedExit(
  report: ConformanceReport,
): { readonly verdictLine: string; readonly why: string } | undefined {
  if (!report.gate) return undefined;
  return { verdictLine: `gatecheck: verdict: ${report.conformance.statement}`, why: report.gate.statement };
}

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

/**
 * One annotation per failing rule: `::error` for a failure that fails the gate, `::warning` for one the gate
 * accepts (waived or known: still a failure, said so in the message), each with its replay line.
 */
export function githubAnnotations(report: ConformanceReport): string[] {
  return report.rules
    .filter((r) => r.verdict === 'fail')
    .map((rule) => {
      const why = accepted(rule);
      const replay = rule.evidence.find((e) => e.replay)?.replay;
      const message = [
        `${rule.level} rule ${rule.id} fails${why ? ` (${why})` : ''}: ${rule.reason ?? rule.requirement}`,
        ...(replay ? [`replay: ${replay}`] : []),
      ].join('\n');
      const kind = why && report.gate ? 'warning' : 'error';
      return `::${kind} title=${escapeProperty(rule.id)}::${escapeData(message)}`;
    });
}

/** Sets on GitHub Actions (the runner sets GITHUB_ACTIONS=true in every step). */
export function underGithubActions(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.GITHUB_ACTIONS === 'true';
}
