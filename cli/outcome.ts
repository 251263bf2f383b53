/**
 * The exit code comes from conformance.json, not from Playwright's exit code: a SHOULD warning fails no
 * test of the verdict, an INFO observation never fails, and a run whose reporter never wrote a report
 * proves nothing.
 */

import { existsSync } from 'node:fs';
import { appendFile, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { githubAnnotations } from '../specs/report/annotations.ts';
import { gateExitReason } from '../specs/report/gate-exit.ts';
import type { ConformanceReport } from '../specs/report/model.ts';
import { gatePassed } from '../specs/report/outcome.ts';
import { STATEMENT_FILE } from '../specs/report/statement-note.ts';
import { displayPath, renderText, useColor } from '../specs/report/text.ts';
import { REPORT_FILES } from '../specs/report/write.ts';
import { EXIT, type ExitCode } from './exit-codes.ts';
import { gatedExit, underGithubActions } from './gate-outcome.ts';

/** Removes the previous run's reports (JUnit's too) so a crashed run cannot be mistaken for it. */
export async function clearReports(reportDir: string, junitFile?: string): Promise<void> {
  await Promise.all(
    [REPORT_FILES.json, REPORT_FILES.html, REPORT_FILES.markdown, STATEMENT_FILE]
      .map((f) => path.join(reportDir, f))
      .concat(junitFile ? [junitFile] : [])
      .map((f) => rm(f, { force: true })),
  );
}

export async function readReport(reportDir: string, runId: string): Promise<ConformanceReport | string> {
  const file = path.join(reportDir, REPORT_FILES.json);
  let report: ConformanceReport;
  try {
    report = JSON.parse(await readFile(file, 'utf8')) as ConformanceReport;
  } catch (e) {
    return `no conformance report was written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
  if (report.run?.id !== runId) return `${file} belongs to another run`;
  return report;
}

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

/** Prints the summary (or why there is none) and returns the exit code. */
export async function finish(
  io: Io,
  reportDir: string,
  runId: string,
  playwrightCode: number,
  junitFile?: string,
  /** Lines printed before the exit line (the signed statement). */
  notes: readonly string[] = [],
  /** Why the run fails whatever its verdict (a statement asked for and not made), already said above. */
  failure?: string,
): Promise<ExitCode> {
  const report = await readReport(reportDir, runId);
  if (typeof report === 'string') {
    io.err(`gatecheck: ${report}; Playwright exited with ${playwrightCode}. See its output above.\n`);
    return EXIT.nonConformant;
  }
  const junit = junitFile && existsSync(junitFile) ? { junitFile } : {};
  io.out(`\n${renderText(report, displayPath(reportDir), { ...junit, color: useColor(process.stdout) })}`);
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (summaryFile) {
    try {
      await appendFile(summaryFile, await readFile(path.join(reportDir, REPORT_FILES.markdown), 'utf8'));
    } catch (e) {
      io.err(`gatecheck: could not append to GITHUB_STEP_SUMMARY: ${(e as Error).message}\n`);
    }
  }
  const code = gatePassed(report) && failure === undefined ? EXIT.conformant : EXIT.nonConformant;
  const gated = gatedExit(report);
  if (underGithubActions()) for (const line of githubAnnotations(report)) io.out(`${line}\n`);
  // The same words in every route (specs/report/gate-exit.ts): the config route's reporter and `gatecheck gate`.
  const why = failure ?? gateExitReason(report);
  for (const line of notes) io.out(`${line}\n`);
  // The verdict and the exit code are two things once a gate decides: both are printed.
  if (gated) io.out(`${gated.verdictLine}\n`);
  io.out(`gatecheck: exit ${code} (${why})\n`);
  return code;
}
