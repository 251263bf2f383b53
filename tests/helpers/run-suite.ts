/**
 * Runs the conformance suite (../../playwright.config.ts, compiled: ../setup/compiled-suite.ts) as a child
 * `playwright test` process, the way a user or CI does, and returns its exit, output and Playwright's JSON
 * report. Each run writes into its own temporary folder, so runs in parallel (and the real reports/) never
 * collide. The folder is removed when the run ends, unless `keep` is set: then the report folder stays for the
 * test to read until `dispose()`.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROFILE_CHECKED_ENV } from '../../specs/profile/load.ts';
import { resolveRunTarget } from '../../specs/profile/resolve.ts';
import type { Politeness } from '../../specs/run/politeness.ts';
import { schemaErrors } from '../report/schema.ts';
import { compiledSuite } from '../setup/compiled-suite.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const MOCK_PROFILE = join(ROOT, 'fixtures', 'mock.profile.json');
const CLI = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

export interface JsonResult {
  status: string;
  errors: { message?: string }[];
  annotations: { type: string; description?: string }[];
  attachments: { name: string; contentType: string; body?: string; path?: string }[];
}
export interface JsonTest {
  status: string;
  annotations: { type: string; description?: string }[];
  results: JsonResult[];
}
export interface JsonSpec {
  title: string;
  file: string;
  tags: string[];
  tests: JsonTest[];
}
interface JsonSuite {
  specs?: JsonSpec[];
  suites?: JsonSuite[];
}
export interface JsonReport {
  suites: JsonSuite[];
  errors: { message?: string }[];
  stats: { expected: number; unexpected: number; skipped: number; flaky: number };
}

export interface RunSuiteOptions {
  /** Go to `playwright test` after the config. */
  readonly args?: readonly string[];
  /** Added to a clean copy of this environment (settings of this run that must not leak are removed first). */
  readonly env?: Readonly<Record<string, string>>;
  /** A profile object: written to the run's folder and passed as GATECHECK_PROFILE. */
  readonly profile?: unknown;
  /**
   * `json` (the default): Playwright's JSON report only. `project`: the configuration's own reporters (list,
   * the conformance reporter, junit into the report folder) plus JSON.
   */
  readonly reporters?: 'json' | 'project';
  /** The run is killed (SIGKILL) after this long; 120 s unless told. */
  readonly timeoutMs?: number;
  /** Keep the run's folder (its report folder) until `dispose()`. */
  readonly keep?: boolean;
}

export interface SuiteRun {
  /** The exit code; null if the process was killed by a signal (see `timedOut`). */
  readonly code: number | null;
  /** Killed for outliving `timeoutMs`. */
  readonly timedOut: boolean;
  readonly wallMs: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Playwright's JSON report as written ('' if none). */
  readonly json: string;
  /** The JSON report, parsed (undefined if none or not JSON). */
  readonly report: JsonReport | undefined;
  /** Every spec in the report, flattened. */
  readonly specs: JsonSpec[];
  /** The run's GATECHECK_REPORT_DIR; only still there with `keep`. */
  readonly reportDir: string;
  /** Every file the run wrote into its report folder, path → text (empty once removed). */
  reportFiles(): Map<string, string>;
  /** Removes the run's folder (with `keep`; otherwise it is gone already). */
  dispose(): void;
}

export function flatten(report: JsonReport | undefined): JsonSpec[] {
  const out: JsonSpec[] = [];
  const walk = (s: JsonSuite): void => {
    out.push(...(s.specs ?? []));
    for (const c of s.suites ?? []) walk(c);
  };
  for (const s of report?.suites ?? []) walk(s);
  return out;
}

/** Settings of this (outer) run that must not leak into the child, unless the caller passes them. */
const OUTER_ONLY = [
  'BASE_URL',
  'GATECHECK_PROFILE',
  'GATECHECK_STRICT',
  'GATECHECK_EMBEDDED',
  'GATECHECK_SEED',
  'TEST_WORKER_INDEX',
  'TEST_PARALLEL_INDEX',
];

/**
 * The digest of the profile the child will read, when it validates here: the child's runner then skips the
 * schema check (≈ 0.1–0.2 CPU-s of Ajv compiling the profile schema, each run), as the CLI's runner does
 * (specs/profile/load.ts PROFILE_CHECKED_ENV); this worker compiles the schema once. The profile is the one
 * the child's set-up takes (specs/profile/resolve.ts). Undefined when it does not resolve here — a test of a bad
 * profile or target — so the child checks and reports it as always.
 */
function checkedHere(env: NodeJS.ProcessEnv): string | undefined {
  try {
    return resolveRunTarget(env).profileDigest;
  } catch {
    return undefined;
  }
}

export async function runSuite(options: RunSuiteOptions = {}): Promise<SuiteRun> {
  const { args = [], env = {}, reporters = 'json', timeoutMs = 120_000, keep = false } = options;
  const suite = compiledSuite();
  const dir = await mkdtemp(join(tmpdir(), 'gatecheck-suite-'));
  const jsonFile = join(dir, 'report.json');
  const reportDir = join(dir, 'reports');
  const childEnv: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', ...suite.env, ...env };
  for (const name of OUTER_ONLY) if (!(name in env)) delete childEnv[name];
  if (options.profile !== undefined) {
    const profilePath = join(dir, 'profile.json');
    await writeFile(profilePath, JSON.stringify(options.profile, null, 2));
    childEnv.GATECHECK_PROFILE = profilePath;
  }
  childEnv[PROFILE_CHECKED_ENV] ??= checkedHere(childEnv);
  childEnv.PLAYWRIGHT_JSON_OUTPUT_FILE = jsonFile;
  childEnv.GATECHECK_REPORT_DIR = reportDir;
  const reporter =
    reporters === 'project'
      ? `list,${suite.reporter},junit,json` // the config's own, plus JSON
      : 'json';
  if (reporters === 'project') childEnv.PLAYWRIGHT_JUNIT_OUTPUT_FILE = join(reportDir, 'junit.xml');
  const started = Date.now();
  try {
    const result = await new Promise<{
      code: number | null;
      timedOut: boolean;
      stdout: string;
      stderr: string;
    }>((resolve) => {
      execFile(
        process.execPath,
        [
          CLI,
          'test',
          '--config',
          suite.config,
          `--reporter=${reporter}`,
          '--output',
          join(dir, 'out'),
          ...args,
        ],
        { cwd: ROOT, env: childEnv, maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs, killSignal: 'SIGKILL' },
        (error, stdout, stderr) => {
          resolve({
            code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
            timedOut: error !== null && (error as { killed?: boolean }).killed === true,
            stdout,
            stderr,
          });
        },
      );
    });
    const wallMs = Date.now() - started;
    const json = await readFile(jsonFile, 'utf8').catch(() => '');
    let report: JsonReport | undefined;
    try {
      report = JSON.parse(json) as JsonReport;
    } catch {
      report = undefined;
    }
    return {
      ...result,
      wallMs,
      json,
      report,
      specs: flatten(report),
      reportDir,
      reportFiles: () => filesUnder(reportDir),
      dispose: () => rmSync(dir, { recursive: true, force: true }),
    };
  } finally {
    if (!keep) await rm(dir, { recursive: true, force: true });
  }
}

function filesUnder(folder: string, files = new Map<string, string>()): Map<string, string> {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return files;
  }
  for (const name of names) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) filesUnder(path, files);
    else files.set(path, readFileSync(path, 'utf8'));
  }
  return files;
}

/** The specs tagged `@rule:<id>`. */
export function specsOf(run: SuiteRun, ruleId: string): JsonSpec[] {
  return run.specs.filter((s) => s.tags.includes(`rule:${ruleId}`) || s.tags.includes(`@rule:${ruleId}`));
}

export interface ConformanceRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly wallMs: number;
  /** conformance.json's rules and run (its `politeness` among them). */
  readonly rules: readonly { id: string; verdict: string; reason?: string }[];
  readonly run: { readonly politeness?: Politeness };
}

/** runSuite with the project's reporters, and what its conformance.json says; the run's folder is removed. */
export async function runConformance(
  options: Omit<RunSuiteOptions, 'reporters' | 'keep'>,
): Promise<ConformanceRun> {
  const run = await runSuite({ ...options, reporters: 'project', keep: true });
  try {
    const report = JSON.parse(await readFile(join(run.reportDir, 'conformance.json'), 'utf8')) as Pick<
      ConformanceRun,
      'rules' | 'run'
    >;
    // Every report a test reads is the documented shape (`gatecheck verify` refuses any other).
    const errors = schemaErrors(report);
    if (errors.length > 0)
      throw new Error(`conformance.json does not match its schema: ${errors.join('; ')}`);
    return { code: run.code, stdout: run.stdout, wallMs: run.wallMs, rules: report.rules, run: report.run };
  } finally {
    run.dispose();
  }
}
