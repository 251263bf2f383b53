/**
 * The conformance suite's cost (docs/design.md "Performance targets": the full default run against the embedded
 * mock, ≥ 2,000 fuzz cases, under 20 s wall on a 2-core machine; fuzzing ≥ 1,500 cases/s).
 *
 * Each run is `playwright test` in a child process, exactly the default run (bench/suite.config.ts adds the
 * JSON reporter for the breakdown), with GATECHECK_BUDGET set and reports written to a temporary folder.
 * Wall time is spawn → exit, as a user or CI sees it. Phases come from the JSON report: before the first
 * test (Playwright start-up, global setup starting the mock, workers), the conformance specs, the fuzz specs
 * (each the span during which at least one of its tests ran — they overlap, two workers), and after the last
 * test (teardown and reporters).
 *
 * The growth series (fuzz budgets 1k … 20k) cannot use the embedded mock: its default limits (5,000 failed
 * credential attempts and 300 requests per 10 s per client) stop a 20k-case run after a few thousand cases —
 * the rest is 429s, a ban, and skipped fuzz rules, i.e. a measurement of the limiter. So each growth run
 * targets a fresh mock in a child process with the limits out of reach (bench/setups.ts), through BASE_URL and
 * the bundled profile, without the `ratelimit.*` rules (which need the real limit; their fixed cost — a burst
 * and a wait for the window — is in the default runs).
 */

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Spread, spread } from './mock-bench.ts';
import { ROOT, startMockProcess } from './mock-process.ts';
import { PROFILE_PATH, UNREACHABLE_RATE_LIMIT } from './setups.ts';

const CLI = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
const CONFIG = join(ROOT, 'bench', 'suite.config.ts');

export const SUITE_TARGET_MS = 20_000;
export const FUZZ_TARGET_PER_SECOND = 1_500;

export interface Phase {
  /** Wall time during which at least one test of the phase ran. */
  readonly wallMs: number;
  /** Sum of the phase's test durations (over both workers). */
  readonly testMs: number;
  readonly tests: number;
}

export interface SuiteRunReport {
  readonly budget: number | undefined;
  /** `embedded`: the default run; `child`: a mock in its own process, limits out of reach, no ratelimit.* rules. */
  readonly target: 'embedded' | 'child';
  readonly wallMs: number;
  readonly exitCode: number | null;
  readonly tests: { readonly passed: number; readonly failed: number; readonly skipped: number };
  readonly phases: {
    readonly startup: number;
    readonly conformance: Phase;
    readonly fuzz: Phase;
    /** Both phases running at once (two workers). */
    readonly overlapMs: number;
    readonly teardown: number;
  };
  readonly fuzz: {
    /** Cases sent, shrinking included, read from each fuzz test's `fuzz` annotation. */
    readonly cases: number;
    /** Cases over the fuzz phase's wall time: the run's fuzzing rate, both workers together. */
    readonly perSecond: number;
    /** The fuzz tests' own rates (each one worker), as their annotations state them. */
    readonly perTestPerSecond: Spread;
  };
}

interface JsonResult {
  readonly startTime: string;
  readonly duration: number;
  readonly status: string;
  readonly annotations?: readonly { type: string; description?: string }[];
}
interface JsonSpec {
  readonly file: string;
  readonly tests: readonly {
    readonly annotations?: readonly { type: string; description?: string }[];
    readonly results: readonly JsonResult[];
  }[];
}
interface JsonSuite {
  readonly specs?: readonly JsonSpec[];
  readonly suites?: readonly JsonSuite[];
}
interface JsonReport {
  readonly suites: readonly JsonSuite[];
}

interface Interval {
  readonly start: number;
  readonly end: number;
}

function union(intervals: readonly Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.start <= last.end)
      out[out.length - 1] = { start: last.start, end: Math.max(last.end, i.end) };
    else out.push({ ...i });
  }
  return out;
}

const length = (intervals: readonly Interval[]): number => intervals.reduce((n, i) => n + i.end - i.start, 0);

function intersection(a: readonly Interval[], b: readonly Interval[]): number {
  let total = 0;
  for (const x of a)
    for (const y of b) total += Math.max(0, Math.min(x.end, y.end) - Math.max(x.start, y.start));
  return total;
}

/** `… 600 cases + 12 shrinking in 401 ms (1526 cases/s) …` (specs/fuzz/fixtures.ts). */
const FUZZ_STATS = /(\d+) cases(?: \+ (\d+) shrinking)? in (\d+) ms \((\d+) cases\/s\)/;

export function analyse(
  report: JsonReport,
  spawnedAt: number,
  exitedAt: number,
): Omit<SuiteRunReport, 'budget' | 'target' | 'wallMs' | 'exitCode'> {
  const phase = { conformance: [] as Interval[], fuzz: [] as Interval[] };
  const tests = { passed: 0, failed: 0, skipped: 0 };
  let cases = 0;
  const rates: number[] = [];
  const walk = (suite: JsonSuite): void => {
    for (const spec of suite.specs ?? []) {
      const isFuzz = /(^|\/)fuzz\//.test(spec.file);
      for (const test of spec.tests) {
        for (const result of test.results) {
          const start = Date.parse(result.startTime);
          (isFuzz ? phase.fuzz : phase.conformance).push({ start, end: start + result.duration });
          if (result.status === 'passed') tests.passed++;
          else if (result.status === 'skipped') tests.skipped++;
          else tests.failed++;
          const seen = new Set<string>();
          for (const a of [...(test.annotations ?? []), ...(result.annotations ?? [])]) {
            if (a.type !== 'fuzz' || a.description === undefined || seen.has(a.description)) continue;
            seen.add(a.description);
            const m = FUZZ_STATS.exec(a.description);
            if (!m) continue;
            cases += Number(m[1]) + Number(m[2] ?? 0);
            rates.push(Number(m[4]));
          }
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites) walk(suite);

  const conformance = union(phase.conformance);
  const fuzz = union(phase.fuzz);
  const all = union([...conformance, ...fuzz]);
  const first = all[0]?.start ?? spawnedAt;
  const last = all[all.length - 1]?.end ?? exitedAt;
  const fuzzWall = length(fuzz);
  const sum = (list: Interval[]): number => list.reduce((n, i) => n + i.end - i.start, 0);
  return {
    tests,
    phases: {
      startup: Math.max(0, first - spawnedAt),
      conformance: {
        wallMs: length(conformance),
        testMs: sum(phase.conformance),
        tests: phase.conformance.length,
      },
      fuzz: { wallMs: fuzzWall, testMs: sum(phase.fuzz), tests: phase.fuzz.length },
      overlapMs: intersection(conformance, fuzz),
      teardown: Math.max(0, exitedAt - last),
    },
    fuzz: {
      cases,
      perSecond: fuzzWall > 0 ? (cases / fuzzWall) * 1000 : 0,
      perTestPerSecond: spread(rates),
    },
  };
}

export interface SuiteRunOptions {
  /** GATECHECK_BUDGET; undefined: the default (DEFAULT_FUZZ_CASES). */
  readonly budget: number | undefined;
  readonly target: 'embedded' | 'child';
  readonly timeoutMs?: number;
  /** `node --cpu-prof` for the runner and (inherited) its workers. */
  readonly cpuProfDir?: string | undefined;
}

/** The `ratelimit.*` rules, left out of the runs against a mock whose limits are out of reach. */
const WITHOUT_RATE_LIMIT_RULES = '--grep-invert=@rule:ratelimit\\.';

export async function runSuiteOnce(options: SuiteRunOptions): Promise<SuiteRunReport> {
  const dir = mkdtempSync(join(tmpdir(), 'gatecheck-bench-suite-'));
  const jsonFile = join(dir, 'report.json');
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  // The default run: the embedded mock, the bundled profile, the default seed.
  for (const name of [
    'BASE_URL',
    'GATECHECK_PROFILE',
    'GATECHECK_STRICT',
    'GATECHECK_SEED',
    'GATECHECK_BUDGET',
  ])
    delete env[name];
  if (options.budget !== undefined) env.GATECHECK_BUDGET = String(options.budget);
  env.GATECHECK_REPORT_DIR = join(dir, 'reports');
  env.GATECHECK_BENCH_JSON = jsonFile;
  const timeoutMs = options.timeoutMs ?? 300_000;
  const mock =
    options.target === 'child'
      ? await startMockProcess({ config: { rateLimit: UNREACHABLE_RATE_LIMIT } })
      : undefined;
  const args = [CLI, 'test', '--config', CONFIG, '--output', join(dir, 'out')];
  if (mock !== undefined) {
    env.BASE_URL = mock.url;
    env.GATECHECK_PROFILE = PROFILE_PATH;
    args.push(WITHOUT_RATE_LIMIT_RULES);
  }
  const nodeFlags = options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : [];
  try {
    const spawnedAt = Date.now();
    const exitCode = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [...nodeFlags, ...args], { cwd: ROOT, env, stdio: 'ignore' });
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    const exitedAt = Date.now();
    let report: JsonReport;
    try {
      report = JSON.parse(readFileSync(jsonFile, 'utf8')) as JsonReport;
    } catch {
      throw new Error(
        `the suite run (budget ${options.budget ?? 'default'}) wrote no JSON report (exit ${exitCode})`,
      );
    }
    return {
      budget: options.budget,
      target: options.target,
      wallMs: exitedAt - spawnedAt,
      exitCode,
      ...analyse(report, spawnedAt, exitedAt),
    };
  } finally {
    await mock?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface SuiteBenchOptions {
  /** Runs of the default budget (the headline figure: median and spread). */
  readonly repeats: number;
  /** Fuzz budgets of the growth series. */
  readonly budgets: readonly number[];
  /** Profile the first default run (runner with the embedded mock, and its workers). */
  readonly cpuProfDir?: string | undefined;
  readonly log: (line: string) => void;
}

export interface SuiteBenchReport {
  readonly method: string;
  readonly defaultRuns: readonly SuiteRunReport[];
  readonly wallMs: Spread;
  readonly fuzzPerSecond: Spread;
  readonly growth: readonly SuiteRunReport[];
  readonly target: { readonly wallMs: number; readonly fuzzPerSecond: number; readonly met: boolean };
}

function oneLine(run: SuiteRunReport): string {
  const p = run.phases;
  return (
    `${run.target} mock, wall ${(run.wallMs / 1000).toFixed(1)} s (exit ${run.exitCode}; ${run.tests.passed} passed, ${run.tests.failed} failed, ${run.tests.skipped} skipped): ` +
    `start-up ${(p.startup / 1000).toFixed(1)} s, conformance ${(p.conformance.wallMs / 1000).toFixed(1)} s, fuzz ${(p.fuzz.wallMs / 1000).toFixed(1)} s ` +
    `(overlap ${(p.overlapMs / 1000).toFixed(1)} s), after ${(p.teardown / 1000).toFixed(1)} s; ` +
    `${run.fuzz.cases} fuzz cases, ${run.fuzz.perSecond.toFixed(0)} cases/s`
  );
}

export async function benchSuite(options: SuiteBenchOptions): Promise<SuiteBenchReport> {
  // Interleaved: default, 1k, default, 5k, … so the headline runs are spread over the whole measurement.
  const defaultRuns: SuiteRunReport[] = [];
  const growth: SuiteRunReport[] = [];
  const queue: { budget: number | undefined; target: 'embedded' | 'child' }[] = [];
  const budgets = [...options.budgets];
  for (let i = 0; i < Math.max(options.repeats, budgets.length); i++) {
    if (i < options.repeats) queue.push({ budget: undefined, target: 'embedded' });
    const b = budgets[i];
    if (b !== undefined) queue.push({ budget: b, target: 'child' });
  }
  let profiled = false;
  for (const { budget, target } of queue) {
    const profileThis: boolean = options.cpuProfDir !== undefined && target === 'embedded' && !profiled;
    profiled ||= profileThis;
    const run = await runSuiteOnce({
      budget,
      target,
      cpuProfDir: profileThis ? options.cpuProfDir : undefined,
    });
    (target === 'embedded' ? defaultRuns : growth).push(run);
    options.log(`  budget ${budget ?? 'default'}: ${oneLine(run)}`);
  }
  const wallMs = spread(defaultRuns.map((r) => r.wallMs));
  const fuzzPerSecond = spread(defaultRuns.map((r) => r.fuzz.perSecond));
  return {
    method:
      'playwright test in a child process with the default configuration (+ JSON reporter), the embedded mock, the default seed; wall time spawn → exit',
    defaultRuns,
    wallMs,
    fuzzPerSecond,
    growth: growth.sort((a, b) => (a.budget ?? 0) - (b.budget ?? 0)),
    target: {
      wallMs: SUITE_TARGET_MS,
      fuzzPerSecond: FUZZ_TARGET_PER_SECOND,
      met: wallMs.median < SUITE_TARGET_MS && fuzzPerSecond.median >= FUZZ_TARGET_PER_SECOND,
    },
  };
}
