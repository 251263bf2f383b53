/**
 * `gatecheck gate [reports/ | conformance.json]`: the gate's decision read back from a report — the same exit code
 * and line the CLI ends with (specs/report/gate-exit.ts: 0 passed, 1 failed, 3 target unreachable), and under
 * GitHub Actions the same annotations. For a route whose process cannot exit with 3 (a user's own Playwright
 * config ends 0 or 1 by the gate) and for a job that reads a report another step wrote (docs/ci.md).
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { githubAnnotations } from '../specs/report/annotations.ts';
import { gateExitCode, gateExitLine } from '../specs/report/gate-exit.ts';
import type { ConformanceReport } from '../specs/report/model.ts';
import { REPORT_FILES } from '../specs/report/write.ts';
import { EXIT, type ExitCode } from './exit-codes.ts';
import { underGithubActions } from './gate-outcome.ts';
import type { Io } from './outcome.ts';

async function reportFile(target: string): Promise<string> {
  const info = await stat(target).catch(() => undefined);
  return info?.isDirectory() ? path.join(target, REPORT_FILES.json) : target;
}

export async function runGate(target: string, io: Io): Promise<ExitCode> {
  const file = await reportFile(target);
  let report: ConformanceReport;
  try {
    report = JSON.parse(await readFile(file, 'utf8')) as ConformanceReport;
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    io.err(`gatecheck: gate: ${file} cannot be read as a conformance report (${why})\n`);
    return EXIT.usage;
  }
  if (typeof report?.conformance?.conformant !== 'boolean' || !Array.isArray(report.rules)) {
    io.err(
      `gatecheck: gate: ${file} is not a gatecheck conformance report (no conformance.conformant, no rules)\n`,
    );
    return EXIT.usage;
  }
  if (underGithubActions()) for (const line of githubAnnotations(report)) io.out(`${line}\n`);
  io.out(`${gateExitLine(report)}\n`);
  return gateExitCode(report) as ExitCode;
}
