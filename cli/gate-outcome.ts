/**
 * The CI gate at the end of a CLI run: the exit code comes from conformance.json's `gate` when waivers or a
 * baseline were given (else from the verdict, as before), and the verdict is printed beside it, because a gate
 * that passes on waived or known failures does not make the target conformant. Under GitHub Actions the gate's
 * reasons and the failures it accepts are also annotations (specs/report/annotations.ts).
 */

import type { ConformanceReport } from '../specs/report/model.ts';

/** The exit line's parenthesis for a gated run, and the verdict line printed before it. */
export function gatedExit(
  report: ConformanceReport,
): { readonly verdictLine: string; readonly why: string } | undefined {
  if (!report.gate) return undefined;
  return { verdictLine: `gatecheck: verdict: ${report.conformance.statement}`, why: report.gate.statement };
}

/** Sets on GitHub Actions (the runner sets GITHUB_ACTIONS=true in every step). */
export function underGithubActions(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.GITHUB_ACTIONS === 'true';
}
