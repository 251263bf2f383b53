/**
 * The gate's decision as one exit code and one line, the same in every route (issue #67): the CLI, a user's own
 * Playwright config (the conformance reporter), `merge-reports` and `gatecheck gate` reading a report back.
 * 0 the gate passed; 1 it failed; 3 the target did not answer (the run's set-up stopped on it); 2 is the
 * caller's, for input it could not read.
 */
import type { ConformanceReport } from './model.ts';
import { gatePassed, outcomeOf } from './outcome.ts';

export const GATE_EXIT = { passed: 0, failed: 1, unreadable: 2, unreachable: 3 } as const;

export function gateExitCode(report: ConformanceReport): number {
  if (report.run.unreachable) return GATE_EXIT.unreachable;
  return gatePassed(report) ? GATE_EXIT.passed : GATE_EXIT.failed;
}

/** Why the report exits as it does, in the words every route's closing line uses. */
export function gateExitReason(report: ConformanceReport): string {
  if (gateExitCode(report) === GATE_EXIT.unreachable)
    return report.run.errors[0]?.replace(/^the run's set-up failed: /, '') ?? 'target unreachable';
  if (report.gate) return report.gate.statement;
  const outcome = outcomeOf(report.conformance);
  if (outcome === 'partial')
    return report.run.maxSkippedMust === undefined
      ? 'partial: not every MUST rule was checked; --max-skipped-must 0 makes that fail the run'
      : `partial, within --max-skipped-must ${report.run.maxSkippedMust}`;
  return outcome === 'conformant' ? 'conformant' : 'not conformant';
}

/** `gatecheck: exit 1 (Gate failed: …)` — the CLI's closing line, for a report. */
export function gateExitLine(report: ConformanceReport): string {
  return `gatecheck: exit ${gateExitCode(report)} (${gateExitReason(report)})`;
}
