/**
 * The MUST rules of the conformance suite against several prepared corpus documents (prepare.ts) in one
 * Playwright run (run.config.ts): what `gatecheck --profile p.json --only @must --budget <n> -- --workers=1`
 * did for each document, with one runner for all of them. Resolves each document's conformance report
 * (report.ts), whose rules are aggregated as the CLI's run of that document alone aggregates them.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { selection } from '../../cli/filter.ts';
import { PLAYWRIGHT_CLI, runnerEnv } from '../../cli/playwright.ts';
import { ENV } from '../../shared/env.ts';
import { type CodeUnder, moduleExtUnder } from '../../shared/paths.ts';
import { startPrimedBroker, type TokenBroker, tokenSources } from '../../specs/credentials/broker.ts';
import { nodeTlsOptions, runTls } from '../../specs/lib/tls.ts';
import { loadCatalogue } from '../../specs/report/catalogue-source.ts';
import type { ConformanceReport } from '../../specs/report/model.ts';
import { REPORT_FILES } from '../../specs/report/write.ts';
import { RunCoordinator } from '../../specs/run/coordinator.ts';
import { startCoordinatorServer } from '../../specs/run/coordinator-server.ts';
import { OBSERVATIONS_ENV } from '../../specs/run/observation-store.ts';
import { SCHEDULER_ENV } from '../../specs/run/port.ts';
import { writeCarriers } from '../carriers/write.ts';
import { MANIFEST_ENV, type Manifest } from './manifest.ts';
import type { PreparedDocument } from './prepare.ts';

/** Failed checks a document may have before the run is taken as broken and stopped (--max-failures). */
const MAX_FAILURES_PER_DOCUMENT = 25;

/** The repository's root (this file is scripts/stand-in-corpus/run.ts): the sources' code root. */
const SOURCES = fileURLToPath(new URL('../../', import.meta.url));

export interface RunOptions {
  /** Fuzz cases per document (`--budget`). */
  readonly budget: number;
  /** Playwright's workers for the run; each document's checks take one of them. */
  readonly workers: number;
  /**
   * The code the run loads: the repository's sources (the default), or a compiled dist/ holding this folder's
   * config and reporter (the self-tests' copy, tests/setup/compiled-suite.ts) with the environment it runs with.
   */
  readonly code?: CodeUnder;
}

/** run.config under the code root `root`. */
function configUnder(root: string): string {
  return path.join(root, `scripts/stand-in-corpus/run.config${moduleExtUnder(root)}`);
}

/**
 * The documents in runs of at most one document whose profile obtains tokens at run time (identities.X.token):
 * the suite's workers reach the run's token broker through their environment (specs/credentials/client.ts),
 * which is the run's, and a broker serves one profile's identities.
 */
export function splitByTokenBroker(docs: readonly PreparedDocument[]): PreparedDocument[][] {
  const brokered = docs.filter((d) => tokenSources(d.profile).length > 0);
  const plain = docs.filter((d) => tokenSources(d.profile).length === 0);
  const runs = brokered.map((d) => [d]);
  if (runs.length === 0) return plain.length ? [plain] : [];
  runs[0]?.push(...plain);
  return runs;
}

/** Each document's conformance report, by name: one Playwright run per group of splitByTokenBroker. */
export async function runDocuments(
  docs: readonly PreparedDocument[],
  dir: string,
  options: RunOptions,
): Promise<Map<string, ConformanceReport>> {
  const reports = new Map<string, ConformanceReport>();
  for (const [i, group] of splitByTokenBroker(docs).entries()) {
    for (const [name, report] of await runGroup(group, path.join(dir, `run-${i}`), options))
      reports.set(name, report);
  }
  return reports;
}

/** The broker of the one document of the group whose profile obtains tokens, primed, as the CLI hosts it. */
async function brokerFor(docs: readonly PreparedDocument[]): Promise<TokenBroker | undefined> {
  const doc = docs.find((d) => tokenSources(d.profile).length > 0);
  if (doc === undefined) return undefined;
  return startPrimedBroker({
    profile: doc.profile,
    baseUrl: doc.baseUrl,
    tls: nodeTlsOptions(runTls(doc.profile, { ...process.env, ...doc.env })),
    // cli/run.ts's preflight and broker timeout.
    timeoutMs: doc.profile.budget?.timeoutMs ?? 5000,
  });
}

/** The outer run's settings and worker identity stay out of the child (cli/playwright.ts runnerEnv). */
function childEnv(): NodeJS.ProcessEnv {
  return runnerEnv(
    Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('GATECHECK_') && k !== ENV.baseUrl),
    ),
  );
}

/** Playwright's CLI in a child process: its exit code, and the end of its output for an error message. */
function playwright(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [PLAYWRIGHT_CLI, ...args],
      // What one document's CLI run was given before; a batch takes 30–90 s.
      { env, timeout: 300_000, maxBuffer: 32 << 20 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stderr}${stdout}`.slice(-3000) }),
    ),
  );
}

async function runGroup(
  docs: readonly PreparedDocument[],
  dir: string,
  options: RunOptions,
): Promise<Map<string, ConformanceReport>> {
  const reportDir = path.join(dir, 'reports');
  await mkdir(dir, { recursive: true });
  const manifest: Manifest = {
    reportDir,
    // Carriers rather than the spec files themselves: a failed check keeps its worker (scripts/carriers/load.ts),
    // where Playwright started a fresh one — which loaded the suite and made its keys again — after each of the
    // rules a document contradicts.
    carriers: await writeCarriers(path.join(dir, 'carriers'), options.code?.root ?? SOURCES),
    targets: docs.map((d) => ({
      name: d.name,
      url: d.baseUrl,
      profile: d.profilePath,
      budget: options.budget,
      env: d.env,
    })),
  };
  const manifestPath = path.join(dir, 'manifest.json');
  await writeFile(manifestPath, JSON.stringify(manifest, null, 2));
  // `--only @must`, as the CLI turns it into Playwright's --grep and the observers' own filter (cli/filter.ts).
  const must = selection(
    ['@must'],
    [],
    (await loadCatalogue()).rules.map((r) => r.id),
  );
  // The run's scheduler, as the suite's set-up starts it in the runner (specs/setup/set-up.ts): one state per
  // target (its pace, what it learned, its budget), kept when Playwright starts a fresh worker after a failure.
  const scheduler = await startCoordinatorServer(new RunCoordinator(Date.now));
  const broker = await brokerFor(docs).catch(async (error) => {
    await scheduler.close();
    throw error;
  });
  try {
    const env: NodeJS.ProcessEnv = {
      ...childEnv(),
      ...options.code?.env,
      ...broker?.env,
      [SCHEDULER_ENV]: scheduler.address,
      [MANIFEST_ENV]: manifestPath,
      [OBSERVATIONS_ENV]: path.join(dir, 'observations'),
      [ENV.filter]: must.description,
      FORCE_COLOR: '0',
    };
    const args = [
      'test',
      '--config',
      configUnder(options.code?.root ?? SOURCES),
      '--grep',
      must.grep ?? '',
      `--workers=${options.workers}`,
      // A failed check keeps its worker and does not count here (scripts/carriers/load.ts); what does is what
      // still makes Playwright start a fresh worker (a crash, a test that ran out of time without the suite's
      // clock). A run with far more of those is broken as a whole: stopped early, it writes its reports and the
      // error quotes the failures, before the bound of execFile below kills it with none.
      `--max-failures=${MAX_FAILURES_PER_DOCUMENT * docs.length}`,
      '--output',
      path.join(dir, 'test-results'),
    ];
    const run = await playwright(args, env);
    const reports = new Map<string, ConformanceReport>();
    for (const doc of docs) {
      const text = await readFile(path.join(reportDir, doc.name, REPORT_FILES.json), 'utf8').catch(() => {
        throw new Error(
          `the run of ${docs.map((d) => d.name).join(', ')} wrote no report (exit ${run.code}): ${run.output}`,
        );
      });
      reports.set(doc.name, JSON.parse(text) as ConformanceReport);
    }
    return reports;
  } finally {
    await broker?.close();
    await scheduler.close();
  }
}
