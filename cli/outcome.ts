/**
 * The exit code comes from conformance.json, not from Playwright's exit code: a SHOULD warning fails no
 * test of the verdict, an INFO observation never fails, and a run whose reporter never wrote a report
 * proves nothing.
 */

import { appendFile, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ConformanceReport } from '../specs/report/model.ts';
import { displayPath, renderText } from '../specs/report/text.ts';
import { REPORT_FILES } from '../specs/report/write.ts';
import { EXIT, type ExitCode } from './exit-codes.ts';

/** Removes the previous run's reports so a crashed run cannot be mistaken for it. */
export async function clearReports(reportDir: string): Promise<void> {
  await Promise.all(
    [REPORT_FILES.json, REPORT_FILES.html, REPORT_FILES.markdown].map((f) =>
      rm(path.join(reportDir, f), { force: true }),
    ),
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
): Promise<ExitCode> {
  const report = await readReport(reportDir, runId);
  if (typeof report === 'string') {
    io.err(`gatecheck: ${report}; Playwright exited with ${playwrightCode}. See its output above.\n`);
    return EXIT.nonConformant;
  }
  io.out(`\n${renderText(report, displayPath(reportDir))}`);
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (summaryFile) {
    try {
      await appendFile(summaryFile, await readFile(path.join(reportDir, REPORT_FILES.markdown), 'utf8'));
    } catch (e) {
      io.err(`gatecheck: could not append to GITHUB_STEP_SUMMARY: ${(e as Error).message}\n`);
    }
  }
  const code = report.conformance.conformant ? EXIT.conformant : EXIT.nonConformant;
  io.out(`gatecheck: exit ${code} (${report.conformance.conformant ? 'conformant' : 'not conformant'})\n`);
  return code;
}
