/**
 * Writes one run's reports into the report directory. Every file is rendered from the same
 * ConformanceReport, which is already redacted; nothing here adds run data of its own.
 */

import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SCHEMA_FILE } from './build.ts';
import { renderHtml } from './html.ts';
import { renderMarkdown } from './markdown.ts';
import type { ConformanceReport } from './model.ts';

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
  await writeFile(files.json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(files.html, renderHtml(report));
  await writeFile(files.markdown, renderMarkdown(report));
  // The schema travels with the report, so a published conformance.json names a schema that is beside it.
  await copyFile(SCHEMA_SOURCE, files.schema);
  return files;
}
