/**
 * The two halves check each other (issue #43): for a document of init's corpus that declares security, the
 * mock stands in for it (`--openapi`), `gatecheck init` reads the mock's `/openapi.json`, and the suite runs
 * its MUST rules against the mock with the credentials the mock printed (`--print-env`'s variables) —
 * counted: routes served, identities issued, MUST pass/fail/skip, the mock's start-up time.
 *
 *   npx tsx scripts/stand-in-corpus.ts [name …]     # default: every corpus document; prints the Markdown table
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInit } from '../cli/init/command.ts';
import { startMock } from '../mock/server.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const CORPUS = path.join(ROOT, 'tests/cli/init/corpus');
const BIN = path.join(ROOT, 'bin/gatecheck.js');

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

interface Rule {
  readonly id: string;
  readonly level: string;
  readonly verdict: string;
  readonly reason?: string;
}

function node(args: readonly string[], cwd: string, env: Record<string, string>) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('GATECHECK_') && k !== 'BASE_URL'),
  );
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      [...args],
      { cwd, env: { ...clean, ...env }, timeout: 300_000, maxBuffer: 32 << 20 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

/** A corpus document's file: not an expected profile, nor a claims file (`<name>.claims.json`, `<name>.writes.claims.json`). */
export function isCorpusDocument(file: string): boolean {
  return /\.(json|ya?ml)$/.test(file) && !file.includes('expected') && !file.includes('.claims.');
}

/** Corpus documents, by name. */
export async function corpusDocuments(): Promise<string[]> {
  return (await readdir(CORPUS))
    .filter(isCorpusDocument)
    .map((f) => f.replace(/\.(json|ya?ml)$/, ''))
    .sort();
}

export async function checkDocument(name: string, budget = 10): Promise<CorpusRow> {
  const file = (await readdir(CORPUS)).find(
    (f) => isCorpusDocument(f) && f.replace(/\.(json|ya?ml)$/, '') === name,
  );
  if (file === undefined) throw new Error(`no corpus document ${name}`);
  const started = performance.now();
  const mock = await startMock({ openapi: path.join(CORPUS, file) });
  const startMs = Math.round(performance.now() - started);
  const dir = await mkdtemp(path.join(tmpdir(), `gatecheck-stand-in-${name}-`));
  try {
    const standIn = mock.standIn;
    if (standIn === undefined) throw new Error('the mock does not stand in for the document');
    const env = Object.fromEntries((await standIn.environment(Date.now())).map((v) => [v.name, v.value]));
    // init in this process, as the CLI runs it (cli/init/command.ts): a child process per document cost a
    // Node start and the CLI's loading each time.
    await runInit(
      {
        source: `${mock.url}/openapi.json`,
        out: path.join(dir, 'p.json'),
        force: false,
        probe: undefined,
        writes: true,
      },
      { out: () => {}, err: () => {} },
    );
    const profile = JSON.parse(await readFile(path.join(dir, 'p.json'), 'utf8')) as { todo?: string[] };
    const contradicted = (profile.todo ?? [])
      .map((line) => /`([\w.-]+)` will fail against this document/.exec(line)?.[1])
      .filter((id): id is string => id !== undefined);
    // One check worker: a MUST run of a few seconds does not repay a second worker's start (≈ 1 s of CPU each,
    // the same verdicts: gitea 53 pass, 0 fail either way; `/usr/bin/time`, 7.4–7.8 against 8.1–9.9 CPU-s).
    const run = await node(
      [
        BIN,
        '--profile',
        'p.json',
        '--only',
        '@must',
        '--budget',
        String(budget),
        '--report-dir',
        'r',
        '--',
        '--workers=1',
      ],
      dir,
      env,
    );
    const text = await readFile(path.join(dir, 'r/conformance.json'), 'utf8').catch(() => {
      throw new Error(
        `the run wrote no report (exit ${run.code}): ${run.stderr.slice(-1500)}${run.stdout.slice(-1500)}`,
      );
    });
    const report = JSON.parse(text) as { rules: Rule[] };
    const must = report.rules.filter((r) => r.level === 'MUST');
    return {
      name,
      routes: standIn.router.routes.length,
      operations: standIn.operations,
      identities: standIn.identities.length,
      startMs,
      pass: must.filter((r) => r.verdict === 'pass').length,
      fail: must.filter((r) => r.verdict === 'fail').map((r) => r.id),
      failReasons: must.filter((r) => r.verdict === 'fail').map((r) => `${r.id}: ${r.reason ?? ''}`),
      skip: must.filter((r) => r.verdict === 'skip').map((r) => ({ id: r.id, reason: r.reason ?? '' })),
      contradicted,
    };
  } finally {
    await mock.close();
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
  const names = process.argv.length > 2 ? process.argv.slice(2) : await corpusDocuments();
  const rows: CorpusRow[] = [];
  for (const name of names) {
    const row = await checkDocument(name);
    rows.push(row);
    process.stderr.write(
      `${name}: fail ${row.fail.join(', ') || 'none'}; contradicted ${row.contradicted.join(', ') || 'none'}\n`,
    );
    for (const f of row.failReasons) process.stderr.write(`  FAIL ${f}\n`);
    if (process.env.SHOW_SKIPS)
      for (const s of row.skip) process.stderr.write(`  skip ${s.id}: ${s.reason}\n`);
  }
  process.stdout.write(corpusTable(rows));
}
