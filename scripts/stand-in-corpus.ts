/**
 * The two halves check each other (issue #43): for a document of init's corpus that declares security, the
 * mock stands in for it (`--openapi`), `gatecheck init` reads the mock's `/openapi.json`, and the suite runs
 * its MUST rules against the mock with the credentials the mock printed (`--print-env`'s variables) —
 * counted: routes served, identities issued, MUST pass/fail/skip, the mock's start-up time. Several documents
 * share one Playwright run (stand-in-corpus/run.ts).
 *
 *   npx tsx scripts/stand-in-corpus.ts [name …]     # default: every corpus document; prints the Markdown table
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ConformanceReport } from '../specs/report/model.ts';
import { corpusDocuments } from './stand-in-corpus/documents.ts';
import { type PreparedDocument, prepareDocument } from './stand-in-corpus/prepare.ts';
import { type RunOptions, runDocuments } from './stand-in-corpus/run.ts';

export interface CorpusRow {
  readonly name: string;
  readonly routes: number;
  readonly operations: number;
  readonly identities: number;
  readonly startMs: number;
  readonly pass: number;
  readonly fail: readonly string[];
  readonly failReasons: readonly string[];
  readonly skip: readonly { id: string; reason: string }[];
  /** The rules init names up front as the document's own contradiction (`will fail against this document`). */
  readonly contradicted: readonly string[];
}

function rowOf(doc: PreparedDocument, report: ConformanceReport): CorpusRow {
  const must = report.rules.filter((r) => r.level === 'MUST');
  const failing = must.filter((r) => r.verdict === 'fail');
  return {
    name: doc.name,
    routes: doc.routes,
    operations: doc.operations,
    identities: doc.identities,
    startMs: doc.startMs,
    pass: must.filter((r) => r.verdict === 'pass').length,
    fail: failing.map((r) => r.id),
    failReasons: failing.map((r) => `${r.id}: ${r.reason ?? ''}`),
    skip: must.filter((r) => r.verdict === 'skip').map((r) => ({ id: r.id, reason: r.reason ?? '' })),
    contradicted: doc.contradicted,
  };
}

/** Ten fuzz cases a document, two workers: what a row takes by default. */
export const CORPUS_RUN: RunOptions = { budget: 10, workers: 2 };

/**
 * The documents' rows, in the order given: each document's mock started and init run here, one after another
 * (so a start-up time is the mock's alone), then their MUST runs together; the mocks are closed after.
 */
export async function checkDocuments(
  names: readonly string[],
  options: RunOptions = CORPUS_RUN,
): Promise<CorpusRow[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-stand-in-'));
  const docs: PreparedDocument[] = [];
  try {
    for (const name of names) docs.push(await prepareDocument(name, path.join(dir, name)));
    const reports = await runDocuments(docs, path.join(dir, 'runs'), options);
    return docs.map((doc) => rowOf(doc, reports.get(doc.name) as ConformanceReport));
  } finally {
    await Promise.allSettled(docs.map((d) => d.mock.close()));
    await rm(dir, { recursive: true, force: true });
  }
}

export function corpusTable(rows: readonly CorpusRow[]): string {
  const lines = [
    '| document | routes (operations) | identities | MUST pass | MUST fail | MUST skip | start-up |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.routes} (${r.operations}) | ${r.identities} | ${r.pass} | ${r.fail.length}${r.fail.length ? ` (${r.fail.join(', ')})` : ''} | ${r.skip.length} | ${r.startMs} ms |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const names = process.argv.length > 2 ? process.argv.slice(2) : corpusDocuments();
  const rows = await checkDocuments(names);
  for (const row of rows) {
    process.stderr.write(
      `${row.name}: fail ${row.fail.join(', ') || 'none'}; contradicted ${row.contradicted.join(', ') || 'none'}\n`,
    );
    for (const f of row.failReasons) process.stderr.write(`  FAIL ${f}\n`);
    if (process.env.SHOW_SKIPS)
      for (const s of row.skip) process.stderr.write(`  skip ${s.id}: ${s.reason}\n`);
  }
  process.stdout.write(corpusTable(rows));
}
