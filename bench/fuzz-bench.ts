/**
 * The fuzz engine's rate beside what its target can answer (`npm run bench -- --only fuzz`).
 *
 * One fresh mock in a child process, its rate limits out of reach (bench/setups.ts, as the suite's growth
 * series), serves both halves of each round:
 *
 * - **ceiling** — autocannon (16 connections, no pipelining) on the two error paths the fuzzer hammers: the
 *   401 path (`GET /protected`, no Authorization) and the 400 path (`GET /protected` with a Bearer credential
 *   outside token68, RFC 6750 §2.1). What the mock can answer there is the most any client can get;
 * - **fuzz** — `playwright test` in a child process with the default configuration, only the fuzz specs
 *   (`specs/fuzz/`), GATECHECK_BUDGET cases, BASE_URL at that mock and the bundled profile without its
 *   `rateLimit` (this mock's limits are out of reach, so there is none to declare: the scheduler paces
 *   nothing, and what is measured is the engine, not the declared pace) and with `budget.maxRequests` room
 *   for the cases. Its rate is
 *   cases (shrinking included) over the span during which fuzz tests ran, both workers together — the
 *   suite benchmark's measure (bench/suite-bench.ts `analyse`).
 *
 * The fraction (fuzz rate over the 401 ceiling of the same round) says where the client stands; rounds
 * alternate the two halves so both see the same machine. Medians over rounds.
 */

import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LoadResult, runLoad } from './load.ts';
import { type Spread, spread } from './mock-bench.ts';
import { ROOT, startMockProcess } from './mock-process.ts';
import { PROFILE, UNREACHABLE_RATE_LIMIT } from './setups.ts';
import { analyse } from './suite-bench.ts';

const CLI = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
const CONFIG = join(ROOT, 'bench', 'suite.config.ts');

/** The issue's target for the fuzz engine against the embedded mock. */
export const FUZZ_ENGINE_TARGET_PER_SECOND = 4_000;

/** RFC 6750 §2.1: b64token is 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=" — "@" is outside. */
const MALFORMED_BEARER = 'Bearer @@@@';

export interface FuzzRound {
  readonly ceiling401: LoadResult;
  readonly ceiling400: LoadResult;
  /** 401 to a well-formed Basic credential never seen before: one scrypt derivation each (the fuzzer sends many). */
  readonly ceilingFreshBasic: LoadResult;
  readonly fuzz: {
    readonly cases: number;
    readonly fuzzWallMs: number;
    readonly perSecond: number;
    readonly wallMs: number;
    readonly exitCode: number | null;
    readonly tests: { readonly passed: number; readonly failed: number; readonly skipped: number };
    readonly perTestPerSecond: Spread;
  };
  /** fuzz cases/s over the 401 ceiling of this round. */
  readonly fraction: number;
}

export interface FuzzBenchReport {
  readonly method: string;
  readonly budget: number;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly rounds: readonly FuzzRound[];
  readonly ceiling401: Spread;
  readonly ceiling400: Spread;
  readonly ceilingFreshBasic: Spread;
  readonly fuzzPerSecond: Spread;
  readonly fraction: Spread;
  readonly loadAverage: { readonly before: number; readonly after: number };
  readonly target: { readonly fuzzPerSecond: number; readonly met: boolean };
}

export interface FuzzBenchOptions {
  readonly rounds: number;
  readonly budget: number;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  /** `node --cpu-prof` for the first round's suite run (runner and, inherited, its workers). */
  readonly cpuProfDir?: string | undefined;
  readonly log: (line: string) => void;
}

/** The bundled profile for a mock whose limits are out of reach: no declared limit, room for `budget` cases. */
export function engineProfile(budget: number): Record<string, unknown> {
  const { rateLimit: _declared, ...rest } = PROFILE as unknown as Record<string, unknown>;
  const limits = (PROFILE.budget ?? {}) as Record<string, unknown>;
  return { ...rest, budget: { ...limits, maxRequests: budget + 2_000 } };
}

/** The fuzz specs alone against `url`, `budget` cases; returns the JSON report's analysis. */
async function runFuzzSuite(url: string, budget: number, cpuProfDir: string | undefined) {
  const dir = mkdtempSync(join(tmpdir(), 'gatecheck-bench-fuzz-'));
  const jsonFile = join(dir, 'report.json');
  const profilePath = join(dir, 'engine.profile.json');
  writeFileSync(profilePath, JSON.stringify(engineProfile(budget)));
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  for (const name of ['GATECHECK_STRICT', 'GATECHECK_SEED', 'GATECHECK_FUZZ_CLIENT', 'GATECHECK_FUZZ_REPLAY'])
    delete env[name];
  env.BASE_URL = url;
  env.GATECHECK_PROFILE = profilePath;
  env.GATECHECK_BUDGET = String(budget);
  env.GATECHECK_REPORT_DIR = join(dir, 'reports');
  env.GATECHECK_BENCH_JSON = jsonFile;
  const nodeFlags = cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [];
  const args = [CLI, 'test', '--config', CONFIG, '--output', join(dir, 'out'), 'specs/fuzz/'];
  try {
    const spawnedAt = Date.now();
    const exitCode = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [...nodeFlags, ...args], { cwd: ROOT, env, stdio: 'ignore' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    const exitedAt = Date.now();
    if (!existsSync(jsonFile)) throw new Error(`the fuzz run wrote no JSON report (exit ${exitCode})`);
    const report = JSON.parse(readFileSync(jsonFile, 'utf8')) as Parameters<typeof analyse>[0];
    return { ...analyse(report, spawnedAt, exitedAt), wallMs: exitedAt - spawnedAt, exitCode };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Worker processes' main-thread profiles of a suite run, oldest (the runner) left out. */
export function workerProfiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /\.0\.\d+\.cpuprofile$/.test(f))
    .sort()
    .slice(1)
    .map((f) => join(dir, f));
}

export async function benchFuzz(options: FuzzBenchOptions): Promise<FuzzBenchReport> {
  const before = loadavg()[0] ?? 0;
  const mock = await startMockProcess({ config: { rateLimit: UNREACHABLE_RATE_LIMIT } });
  const rounds: FuzzRound[] = [];
  try {
    for (let i = 0; i < options.rounds; i++) {
      const load = (headers: Record<string, string>) =>
        runLoad({
          url: mock.url,
          path: '/protected',
          headers,
          connections: options.connections,
          durationSeconds: options.durationSeconds,
          warmupSeconds: options.warmupSeconds,
        });
      let fresh = 0;
      const freshBasic = () =>
        runLoad({
          url: mock.url,
          requests: [
            {
              method: 'GET',
              path: '/protected',
              setupRequest: (request) => ({
                ...request,
                headers: {
                  authorization: `Basic ${Buffer.from(`bench-${i}-${fresh++}:x`).toString('base64')}`,
                },
              }),
            },
          ],
          connections: options.connections,
          durationSeconds: options.durationSeconds,
          warmupSeconds: 0,
        });
      const ceilings = async () => ({
        ceiling401: await load({}),
        ceiling400: await load({ authorization: MALFORMED_BEARER }),
        ceilingFreshBasic: await freshBasic(),
      });
      const profDir = i === 0 ? options.cpuProfDir : undefined;
      if (profDir) mkdirSync(profDir, { recursive: true });
      // Alternate which half goes first, so neither always meets the warmer (or busier) machine.
      let measured: Awaited<ReturnType<typeof ceilings>>;
      let run: Awaited<ReturnType<typeof runFuzzSuite>>;
      if (i % 2 === 0) {
        measured = await ceilings();
        run = await runFuzzSuite(mock.url, options.budget, profDir);
      } else {
        run = await runFuzzSuite(mock.url, options.budget, profDir);
        measured = await ceilings();
      }
      const { ceiling401, ceiling400, ceilingFreshBasic } = measured;
      const round: FuzzRound = {
        ceiling401,
        ceiling400,
        ceilingFreshBasic,
        fuzz: {
          cases: run.fuzz.cases,
          fuzzWallMs: run.phases.fuzz.wallMs,
          perSecond: run.fuzz.perSecond,
          wallMs: run.wallMs,
          exitCode: run.exitCode,
          tests: run.tests,
          perTestPerSecond: run.fuzz.perTestPerSecond,
        },
        fraction: ceiling401.requestsPerSecond > 0 ? run.fuzz.perSecond / ceiling401.requestsPerSecond : 0,
      };
      rounds.push(round);
      options.log(
        `  round ${i + 1}: ceiling 401 ${Math.round(ceiling401.requestsPerSecond)} req/s, 400 ${Math.round(ceiling400.requestsPerSecond)} req/s, ` +
          `fresh Basic ${Math.round(ceilingFreshBasic.requestsPerSecond)} req/s; ` +
          `fuzz ${run.fuzz.cases} cases in ${(run.phases.fuzz.wallMs / 1000).toFixed(2)} s = ${Math.round(run.fuzz.perSecond)} cases/s ` +
          `(${(round.fraction * 100).toFixed(0)}% of the 401 ceiling; exit ${run.exitCode}, ${run.tests.passed}/${run.tests.failed}/${run.tests.skipped})`,
      );
    }
  } finally {
    await mock.stop();
  }
  const fuzzPerSecond = spread(rounds.map((r) => r.fuzz.perSecond));
  return {
    method:
      'per round: autocannon on the mock’s 401 and 400 paths (GET /protected), then (or before, alternating) playwright test specs/fuzz/ against the same mock (child process, limits out of reach, bundled profile, default seed); fuzz cases/s = cases incl. shrinking over the fuzz span',
    budget: options.budget,
    connections: options.connections,
    durationSeconds: options.durationSeconds,
    rounds,
    ceiling401: spread(rounds.map((r) => r.ceiling401.requestsPerSecond)),
    ceiling400: spread(rounds.map((r) => r.ceiling400.requestsPerSecond)),
    ceilingFreshBasic: spread(rounds.map((r) => r.ceilingFreshBasic.requestsPerSecond)),
    fuzzPerSecond,
    fraction: spread(rounds.map((r) => r.fraction)),
    loadAverage: { before, after: loadavg()[0] ?? 0 },
    target: {
      fuzzPerSecond: FUZZ_ENGINE_TARGET_PER_SECOND,
      met: fuzzPerSecond.median >= FUZZ_ENGINE_TARGET_PER_SECOND,
    },
  };
}

const int = (x: number): string => Math.round(x).toLocaleString('en-US');
const range = (s: Spread, f: (x: number) => string): string =>
  s.min === s.max ? f(s.median) : `${f(s.median)} (${f(s.min)}–${f(s.max)})`;
const pct = (x: number): string => `${(x * 100).toFixed(0)}%`;

/** The bench.md section. */
export function fuzzSection(fuzz: FuzzBenchReport): string[] {
  const out: string[] = [
    `### Fuzz engine — ${int(fuzz.budget)} cases, beside the mock's error-path ceiling (${fuzz.rounds.length} rounds)`,
    '',
    `Per round: autocannon (${fuzz.connections} connections, ${fuzz.durationSeconds} s) on the 401 path (\`GET /protected\`, no credentials), the 400 path (a Bearer value outside token68) and the 401 to a Basic credential never seen before (one scrypt derivation each: the fuzzer sends many), and \`playwright test specs/fuzz/\` (2 workers, GATECHECK_BUDGET=${fuzz.budget}) against the same mock in its own process, limits out of reach. Fuzz cases/s = cases (shrinking included) over the span during which fuzz tests ran. Load average (1 min) ${fuzz.loadAverage.before.toFixed(1)} before, ${fuzz.loadAverage.after.toFixed(1)} after.`,
    '',
    '| round | 401 ceiling req/s | 400 ceiling req/s | fresh Basic 401 req/s | fuzz cases | fuzz span s | fuzz cases/s | of the 401 ceiling | per test cases/s (median, min–max) | passed/failed/skipped |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |',
  ];
  fuzz.rounds.forEach((r, i) => {
    out.push(
      `| ${i + 1} | ${int(r.ceiling401.requestsPerSecond)} | ${int(r.ceiling400.requestsPerSecond)} | ${int(r.ceilingFreshBasic.requestsPerSecond)} | ${int(r.fuzz.cases)} | ${(r.fuzz.fuzzWallMs / 1000).toFixed(2)} | ${int(r.fuzz.perSecond)} | ${pct(r.fraction)} | ${range(r.fuzz.perTestPerSecond, int)} | ${r.fuzz.tests.passed}/${r.fuzz.tests.failed}/${r.fuzz.tests.skipped} |`,
    );
  });
  out.push(
    `| **median** | ${int(fuzz.ceiling401.median)} | ${int(fuzz.ceiling400.median)} | ${int(fuzz.ceilingFreshBasic.median)} | | | **${int(fuzz.fuzzPerSecond.median)}** | **${pct(fuzz.fraction.median)}** | | |`,
    '',
    `Target: fuzzing ≥ ${int(fuzz.target.fuzzPerSecond)} cases/s — median ${int(fuzz.fuzzPerSecond.median)} (${int(fuzz.fuzzPerSecond.min)}–${int(fuzz.fuzzPerSecond.max)}): **${fuzz.target.met ? 'met' : 'missed'}**, ${pct(fuzz.fraction.median)} of what the mock answers on its 401 path in the same rounds.`,
    '',
  );
  return out;
}
