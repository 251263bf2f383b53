/**
 * Writes one run's reports into the report directory. Every file is rendered from the same
 * ConformanceReport, which is already redacted; nothing here adds run data of its own.
 */

import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SCHEMA_FILE } from './build.ts';
import { renderHtml } from './html.ts';
import { renderMarkdown } from './markdown.ts';
import type { ConformanceReport } from './model.ts';
import { STATEMENT_FILE, type StatementNote } from './statement-note.ts';

export const REPORT_FILES = {
  json: 'conformance.json',
  html: 'conformance.html',
  markdown: 'summary.md',
  schema: SCHEMA_FILE,
} as const;

const SCHEMA_SOURCE = new URL(`./${SCHEMA_FILE}`, import.meta.url);

export async function writeReports(
  dir: string,
  report: ConformanceReport,
): Promise<Record<keyof typeof REPORT_FILES, string>> {
  await mkdir(dir, { recursive: true });
  const files = {
    json: path.join(dir, REPORT_FILES.json),
    html: path.join(dir, REPORT_FILES.html),
    markdown: path.join(dir, REPORT_FILES.markdown),
    schema: path.join(dir, REPORT_FILES.schema),
  };
  // A statement beside the report attests the previous one: it goes before the new report is written.
  await rm(path.join(dir, STATEMENT_FILE), { force: true });
  await writeFile(files.json, `${JSON.stringify(report, null, 2)}\n`);
  await writeRenderings(dir, report);
  // The schema travels with the report, so a published conformance.json names a schema that is beside it.
  await copyFile(SCHEMA_SOURCE, files.schema);
  return files;
}

/**
 * conformance.html and summary.md, from the report and, once the run is signed, its statement. The statement
 * attests conformance.json only, so these two can be written again after signing to name it.
 */
export async function writeRenderings(
  dir: string,
  report: ConformanceReport,
  statement?: StatementNote,
): Promise<void> {
  await writeFile(path.join(dir, REPORT_FILES.html), renderHtml(report, statement));
  await writeFile(path.join(dir, REPORT_FILES.markdown), renderMarkdown(report, statement));
}
