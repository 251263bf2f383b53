/**
 * The cost of politeness (docs/design.md "A polite client"): the default run — full catalogue, fuzzing
 * included — against a mock that limits every client address across all routes, versus the least time the
 * declared limit allows for the requests the run sent (requests ÷ the limit's rate). Target: within 1.3× of
 * that minimum. The mock runs in a child process (its own event loop), the suite as `playwright test` in
 * another, as a user runs it; wall time is spawn → exit. The figures come from the run's conformance.json
 * (`run.politeness`), so they are the scheduler's own count.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, startMockProcess } from './mock-process.ts';
import { PROFILE } from './setups.ts';

const CLI = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

/** The limit: per client address, across all routes — well below the suite's natural rate. */
export const POLITE_LIMIT = { limit: 100, windowSeconds: 2 } as const;
export const POLITE_TARGET_RATIO = 1.3;

export interface PoliteRun {
  readonly fuzzCases: number;
  readonly wallMs: number;
  readonly exitCode: number | null;
  readonly requests: number;
  readonly limitedAnswers: number;
  readonly waitedMs: number;
  /** requests ÷ (limit / windowSeconds), in ms: the least time the declared limit allows. */
  readonly minimumMs: number;
  /** wallMs ÷ minimumMs. */
  readonly ratio: number;
  /** Rules that did not pass (skips for rate limiting would show here). */
  readonly notPassed: readonly string[];
}

export interface PoliteBenchReport {
  readonly limit: typeof POLITE_LIMIT;
  readonly targetRatio: number;
  readonly runs: readonly PoliteRun[];
}

export async function runPoliteOnce(fuzzCases: number): Promise<PoliteRun> {
  const dir = mkdtempSync(join(tmpdir(), 'gatecheck-bench-polite-'));
  const mock = await startMockProcess({
    config: {
      rateLimit: {
        enabled: true,
        groups: {
          default: {
            key: 'address',
            ...POLITE_LIMIT,
            failedAttemptLimit: 1_000_000,
            banAfter: 3,
            banSeconds: 2,
          },
        },
      },
    } as never,
  });
  try {
    const profile = {
      ...PROFILE,
      $schema: join(ROOT, 'fixtures', 'schemas', 'profile.schema.json'),
      // The mock's limit counts every request per address; the burst goes to the protected endpoint.
      rateLimit: {
        ...PROFILE.rateLimit,
        endpoint: PROFILE.endpoints.protected,
        appliesTo: 'all',
        ...POLITE_LIMIT,
        key: 'address',
        banAfter: 3,
        banSeconds: 2,
      },
      budget: { ...PROFILE.budget, fuzzCases, maxSeconds: 600 },
    };
    const profilePath = join(dir, 'profile.json');
    writeFileSync(profilePath, JSON.stringify(profile));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      FORCE_COLOR: '0',
      BASE_URL: mock.url,
      GATECHECK_PROFILE: profilePath,
      GATECHECK_REPORT_DIR: join(dir, 'reports'),
    };
    for (const name of ['GATECHECK_BUDGET', 'GATECHECK_SEED', 'GATECHECK_STRICT']) delete env[name];
    const spawnedAt = Date.now();
    const exitCode = await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        [CLI, 'test', '--config', join(ROOT, 'playwright.config.ts'), '--output', join(dir, 'out')],
        { cwd: ROOT, env, stdio: 'ignore' },
      );
      const timer = setTimeout(() => child.kill('SIGKILL'), 900_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    const wallMs = Date.now() - spawnedAt;
    const report = JSON.parse(readFileSync(join(dir, 'reports', 'conformance.json'), 'utf8')) as {
      rules: { id: string; verdict: string }[];
      run: { politeness?: { requests: number; limitedAnswers: number; waitedMs: number } };
    };
    const p = report.run.politeness;
    if (p === undefined) throw new Error('the run reported no politeness figures');
    const minimumMs = (p.requests / (POLITE_LIMIT.limit / POLITE_LIMIT.windowSeconds)) * 1000;
    return {
      fuzzCases,
      wallMs,
      exitCode,
      requests: p.requests,
      limitedAnswers: p.limitedAnswers,
      waitedMs: p.waitedMs,
      minimumMs,
      ratio: wallMs / minimumMs,
      notPassed: report.rules.filter((r) => r.verdict !== 'pass').map((r) => `${r.id}: ${r.verdict}`),
    };
  } finally {
    await mock.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchPolite(options: {
  readonly fuzzCases: readonly number[];
  readonly log: (line: string) => void;
}): Promise<PoliteBenchReport> {
  const runs: PoliteRun[] = [];
  for (const cases of options.fuzzCases) {
    const run = await runPoliteOnce(cases);
    runs.push(run);
    options.log(
      `  ${cases} fuzz cases: ${run.requests} requests in ${(run.wallMs / 1000).toFixed(1)} s; minimum ${(run.minimumMs / 1000).toFixed(1)} s → ${run.ratio.toFixed(2)}× (target ≤ ${POLITE_TARGET_RATIO}×); ${run.limitedAnswers} limited answers, ${(run.waitedMs / 1000).toFixed(1)} s waiting; not passed: ${run.notPassed.join(', ') || 'none'}`,
    );
  }
  return { limit: POLITE_LIMIT, targetRatio: POLITE_TARGET_RATIO, runs };
}

/** Markdown rows for bench.md. */
export function politeSection(report: PoliteBenchReport): string[] {
  const { limit, windowSeconds } = report.limit;
  return [
    `### Politeness — the default run against a mock limiting each address to ${limit} requests per ${windowSeconds} s across all routes`,
    '',
    '| fuzz cases | requests | wall | minimum (requests ÷ rate) | ratio | limited answers | waiting | not passed |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...report.runs.map(
      (r) =>
        `| ${r.fuzzCases} | ${r.requests} | ${(r.wallMs / 1000).toFixed(1)} s | ${(r.minimumMs / 1000).toFixed(1)} s | **${r.ratio.toFixed(2)}×** | ${r.limitedAnswers} | ${(r.waitedMs / 1000).toFixed(1)} s | ${r.notPassed.join(', ') || 'none'} |`,
    ),
    '',
    `Target: within ${report.targetRatio}× of the minimum the declared limit allows.`,
    '',
  ];
}
