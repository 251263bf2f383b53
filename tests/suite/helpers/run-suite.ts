/**
 * Runs the conformance suite (../../playwright.config.ts) as a child process, the way a user or CI
 * does, and returns its JSON report and output. Each run writes into its own temporary directories so
 * runs in parallel (and the real reports/) never collide.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
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

export interface SuiteRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly report: JsonReport | undefined;
  /** Every spec in the report, flattened. */
  readonly specs: JsonSpec[];
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

/** `args` go to `playwright test` after the config; `env` is added to a clean copy of this environment. */
export async function runSuite(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<SuiteRun> {
  const dir = await mkdtemp(join(tmpdir(), 'gatecheck-suite-'));
  const jsonFile = join(dir, 'report.json');
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  // Settings of this (outer) run must not leak into the child.
  for (const name of [
    'BASE_URL',
    'GATECHECK_PROFILE',
    'GATECHECK_STRICT',
    'GATECHECK_EMBEDDED',
    'TEST_WORKER_INDEX',
    'TEST_PARALLEL_INDEX',
  ]) {
    if (!(name in env)) delete childEnv[name];
  }
  childEnv.PLAYWRIGHT_JSON_OUTPUT_FILE = jsonFile;
  childEnv.GATECHECK_REPORT_DIR = join(dir, 'reports');
  childEnv.FORCE_COLOR = '0';
  try {
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
      (resolve) => {
        execFile(
          process.execPath,
          [
            CLI,
            'test',
            '--config',
            join(ROOT, 'playwright.config.ts'),
            '--reporter=json',
            '--output',
            join(dir, 'out'),
            ...args,
          ],
          { cwd: ROOT, env: childEnv, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 },
          (error, stdout, stderr) => {
            const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
            resolve({ code, stdout, stderr });
          },
        );
      },
    );
    let report: JsonReport | undefined;
    try {
      report = JSON.parse(await readFile(jsonFile, 'utf8')) as JsonReport;
    } catch {
      report = undefined;
    }
    return { code, stdout, stderr, report, specs: flatten(report) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The specs tagged `@rule:<id>`. */
export function specsOf(run: SuiteRun, ruleId: string): JsonSpec[] {
  return run.specs.filter((s) => s.tags.includes(`rule:${ruleId}`) || s.tags.includes(`@rule:${ruleId}`));
}
