/**
 * One conformance run as a user starts it — `playwright test` with the product's configuration in a child
 * process, BASE_URL and a profile file — with its reports in a temporary folder, and what the politeness
 * benchmark reads back: exit code, wall time (spawn → exit), the rules' verdicts and `run.politeness` from
 * conformance.json. Bounded: killed after `timeoutMs`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Politeness } from '../specs/run/coordinator.ts';
import { ROOT } from './mock-process.ts';

const CLI = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

export interface RuleResult {
  readonly id: string;
  readonly level: string;
  readonly verdict: string;
  readonly reason?: string;
}

/** The words of the run's revised-estimate line. */
const REVISED = "in all at the target's limit";

export interface SuiteProcessRun {
  readonly exitCode: number | null;
  readonly killed: boolean;
  readonly wallMs: number;
  readonly rules: readonly RuleResult[];
  readonly politeness: Politeness | undefined;
  /** The console's last lines (the summary), for a reader who wants to see why. */
  readonly tail: string;
  /** When the run first printed a revised estimate (specs/setup/estimate.ts revisedEstimateLine), ms after spawn. */
  readonly revisedAtMs?: number;
}

export async function runSuiteProcess(options: {
  readonly baseUrl: string;
  readonly profile: unknown;
  readonly timeoutMs: number;
  readonly env?: Readonly<Record<string, string>>;
  /** Extra `playwright test` arguments (e.g. `--grep`). */
  readonly args?: readonly string[];
}): Promise<SuiteProcessRun> {
  const dir = mkdtempSync(join(tmpdir(), 'gatecheck-bench-run-'));
  try {
    const profilePath = join(dir, 'profile.json');
    writeFileSync(profilePath, JSON.stringify(options.profile));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      FORCE_COLOR: '0',
      BASE_URL: options.baseUrl,
      GATECHECK_PROFILE: profilePath,
      GATECHECK_REPORT_DIR: join(dir, 'reports'),
    };
    for (const name of ['GATECHECK_BUDGET', 'GATECHECK_SEED', 'GATECHECK_STRICT', 'CI']) delete env[name];
    Object.assign(env, options.env ?? {});
    const spawnedAt = Date.now();
    let out = '';
    let killed = false;
    let revisedAtMs: number | undefined;
    const exitCode = await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          CLI,
          'test',
          '--config',
          join(ROOT, 'playwright.config.ts'),
          '--output',
          join(dir, 'out'),
          ...(options.args ?? []),
        ],
        { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const keep = (chunk: Buffer) => {
        const text = chunk.toString();
        if (revisedAtMs === undefined && text.includes(REVISED)) revisedAtMs = Date.now() - spawnedAt;
        out = (out + text).slice(-20_000);
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      const timer = setTimeout(() => {
        killed = true;
        child.kill('SIGKILL');
      }, options.timeoutMs);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    const wallMs = Date.now() - spawnedAt;
    const file = join(dir, 'reports', 'conformance.json');
    const report = existsSync(file)
      ? (JSON.parse(readFileSync(file, 'utf8')) as {
          rules: RuleResult[];
          run: { politeness?: Politeness };
        })
      : undefined;
    return {
      exitCode,
      killed,
      wallMs,
      rules: report?.rules ?? [],
      politeness: report?.run.politeness,
      tail: out.split('\n').slice(-40).join('\n'),
      ...(revisedAtMs === undefined ? {} : { revisedAtMs }),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
