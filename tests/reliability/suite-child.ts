/**
 * Runs the conformance suite (../../playwright.config.ts, its default reporters) in a child process against
 * a target, keeping everything it wrote — its output, Playwright's JSON report, and the report folder
 * (conformance.json, .html, summary.md, junit.xml) — for the test to read; `dispose()` removes it. Bounded.
 */

import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../bench/mock-process.ts';

const CLI = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

export interface ChildRun {
  readonly code: number | null;
  readonly timedOut: boolean;
  readonly wallMs: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Playwright's JSON report (the `json` reporter added to the defaults). */
  readonly json: string;
  readonly reportDir: string;
  /** Every file the run wrote into its report folder, path → text (HTML report's zipped data excluded). */
  reportFiles(): Map<string, string>;
  dispose(): void;
}

export async function runSuiteChild(options: {
  readonly baseUrl: string;
  /** The profile object, written to a temporary file. */
  readonly profile: unknown;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}): Promise<ChildRun> {
  const dir = mkdtempSync(join(tmpdir(), 'gatecheck-hostile-'));
  const profilePath = join(dir, 'profile.json');
  writeFileSync(profilePath, JSON.stringify(options.profile, null, 2));
  const jsonPath = join(dir, 'playwright.json');
  const reportDir = join(dir, 'reports');
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', ...options.env };
  for (const name of [
    'GATECHECK_STRICT',
    'GATECHECK_EMBEDDED',
    'GATECHECK_SEED',
    'TEST_WORKER_INDEX',
    'TEST_PARALLEL_INDEX',
  ])
    delete env[name];
  Object.assign(env, {
    BASE_URL: options.baseUrl,
    GATECHECK_PROFILE: profilePath,
    GATECHECK_REPORT_DIR: reportDir,
    PLAYWRIGHT_JSON_OUTPUT_FILE: jsonPath,
  });
  const started = Date.now();
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
        join(ROOT, 'playwright.config.ts'),
        // The configuration's own reporters, plus JSON for the test to read.
        `--reporter=list,${join(ROOT, 'specs', 'report', 'reporter.ts')},junit,json`,
        '--output',
        join(dir, 'out'),
        ...options.args,
      ],
      {
        cwd: ROOT,
        env: { ...env, PLAYWRIGHT_JUNIT_OUTPUT_FILE: join(reportDir, 'junit.xml') },
        maxBuffer: 32 * 1024 * 1024,
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
      },
      (error, stdout, stderr) => {
        const timedOut = error !== null && (error as { killed?: boolean }).killed === true;
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
          timedOut,
          stdout,
          stderr,
        });
      },
    );
  });
  const wallMs = Date.now() - started;
  let json = '';
  try {
    json = readFileSync(jsonPath, 'utf8');
  } catch {
    json = '';
  }
  return {
    ...result,
    wallMs,
    json,
    reportDir,
    reportFiles() {
      const files = new Map<string, string>();
      const walk = (folder: string): void => {
        let names: string[];
        try {
          names = readdirSync(folder);
        } catch {
          return;
        }
        for (const name of names) {
          const path = join(folder, name);
          if (statSync(path).isDirectory()) walk(path);
          else files.set(path, readFileSync(path, 'utf8'));
        }
      };
      walk(reportDir);
      return files;
    },
    dispose() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
