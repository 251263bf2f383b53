/**
 * A small Playwright project in a temp directory, run with the conformance reporter, so the reporter is
 * tested on real Playwright output (tags, runtime annotations, attachments, shards, merge-reports)
 * without depending on the real suite or the mock.
 */

import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConformanceReport } from '../../specs/report/model.ts';
import type { Rule } from '../../specs/rules/types.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const REPORTER = path.join(ROOT, 'specs/report/reporter.ts');
export const PLAYWRIGHT_CLI = path.join(ROOT, 'node_modules/@playwright/test/cli.js');

export interface SyntheticProject {
  readonly dir: string;
  readonly reportDir: string;
  run(args?: readonly string[], env?: Record<string, string>): Promise<RunResult>;
  /** `playwright merge-reports` over `blobDir` with merge.config.ts (only the conformance reporter). */
  merge(blobDir: string, env?: Record<string, string>): Promise<RunResult>;
  report(): Promise<ConformanceReport>;
  dispose(): Promise<void>;
}

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Environment for a child Playwright: none of the parent run's worker variables, none of ours. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(PW_|PLAYWRIGHT_|TEST_|GATECHECK_)/.test(k) || k === 'BASE_URL' || k === 'GITHUB_STEP_SUMMARY')
      continue;
    env[k] = v;
  }
  return { ...env, FORCE_COLOR: '0', CI: '', ...extra };
}

export function runNode(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export interface ProjectSpec {
  readonly catalogue: readonly Rule[];
  readonly catalogueVersion?: string;
  /** Spec files: name → source. They import `test`, `expect` from '@playwright/test'. */
  readonly files: Readonly<Record<string, string>>;
  /** Raw profile JSON written to profile.json (its secrets are what redaction must hide). */
  readonly profile?: unknown;
  /** Extra reporters before ours, e.g. [['junit', { outputFile: … }]]. */
  readonly reporters?: readonly unknown[];
  readonly retries?: number;
}

export async function createProject(spec: ProjectSpec): Promise<SyntheticProject> {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-synthetic-'));
  const reportDir = path.join(dir, 'reports');
  // The project resolves '@playwright/test' from the package's own node_modules, the same instance as the runner.
  await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  await writeFile(
    path.join(dir, 'catalogue.ts'),
    `export const CATALOGUE_VERSION = ${JSON.stringify(spec.catalogueVersion ?? 'test-1')};\n` +
      `export const catalogue = ${JSON.stringify(spec.catalogue, null, 2)};\n`,
  );
  const profilePath = path.join(dir, 'profile.json');
  if (spec.profile !== undefined) await writeFile(profilePath, JSON.stringify(spec.profile, null, 2));
  const reporterOptions = {
    catalogue: path.join(dir, 'catalogue.ts'),
    ...(spec.profile !== undefined ? { profile: profilePath } : {}),
  };
  const reporters = [...(spec.reporters ?? []), ['list'], [REPORTER, reporterOptions]];
  await writeFile(
    path.join(dir, 'playwright.config.ts'),
    `export default {\n  testDir: 'specs',\n  retries: ${spec.retries ?? 0},\n  workers: 1,\n` +
      `  reporter: ${JSON.stringify(reporters)},\n};\n`,
  );
  // For merge-reports: the same test directory, only the reporters that read (no blob writer).
  await writeFile(
    path.join(dir, 'merge.config.ts'),
    `export default {\n  testDir: 'specs',\n  reporter: ${JSON.stringify([[REPORTER, reporterOptions]])},\n};\n`,
  );
  await mkdir(path.join(dir, 'specs'));
  for (const [name, source] of Object.entries(spec.files))
    await writeFile(path.join(dir, 'specs', name), source);

  return {
    dir,
    reportDir,
    run: (args = [], env = {}) =>
      runNode(
        [PLAYWRIGHT_CLI, 'test', '-c', path.join(dir, 'playwright.config.ts'), ...args],
        dir,
        cleanEnv({ GATECHECK_REPORT_DIR: reportDir, ...env }),
      ),
    merge: (blobDir, env = {}) =>
      runNode(
        [PLAYWRIGHT_CLI, 'merge-reports', '-c', path.join(dir, 'merge.config.ts'), blobDir],
        dir,
        cleanEnv({ GATECHECK_REPORT_DIR: reportDir, ...env }),
      ),
    report: async () =>
      JSON.parse(await readFile(path.join(reportDir, 'conformance.json'), 'utf8')) as ConformanceReport,
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A rule declaration for synthetic catalogues. */
export function rule(id: string, level: Rule['level'], statuses: number[] = [401]): Rule {
  return {
    id,
    level,
    requirement: `${id} requirement`,
    refs: [
      { spec: 'RFC 9110', section: '§11.6.1', url: 'https://www.rfc-editor.org/rfc/rfc9110#section-11.6.1' },
    ],
    statuses,
    impact: 'status',
    remedy: `${id} remedy`,
  };
}
