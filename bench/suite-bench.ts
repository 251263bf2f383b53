/**
 * The conformance suite's cost (docs/performance.md "The default run": the full default run against the
 * embedded mock, the same rules and ≥ 3,996 fuzz cases, under 6 s wall median on a 2-core machine; fuzzing
 * ≥ 1,500 cases/s).
 *
 * Each run is `playwright test` in a child process, exactly the default run (bench/suite.config.ts adds the
 * JSON reporter for the breakdown), with GATECHECK_BUDGET set and reports written to a temporary folder.
 * Wall time is spawn → exit, as a user or CI sees it. Phases come from the JSON report: before the first
 * test (Playwright start-up, global setup starting the mock, workers), the conformance specs, the fuzz specs
 * (each the span during which at least one of its tests ran — they overlap, two workers), and after the last
 * test (teardown and reporters).
 *
 * The growth series (fuzz budgets 1k … 100k) and the rule series (a growing share of the catalogue's rules at
 * a fixed budget) cannot use the embedded mock: its default limits (20,000 failed credential attempts and 3,000
 * requests per 10 s per client) would stop a 100k-case run — the rest being 429s and waits, a measurement of the
 * limiter. So each of those runs targets a fresh mock in a child process with the limits out of reach
 * (bench/setups.ts), through BASE_URL and the bundled profile without its `rateLimit` (the mock has none in
 * reach, so none is declared) and with `budget.maxRequests` sized to the cases, without the `ratelimit.*`
 * rules (their fixed cost — a burst and a wait for the window — is in the default runs). Each run is bounded
 * in time (RUN_TIMEOUT_MS). A least-squares line through each series says how wall time grows: seconds per
 * 1,000 fuzz cases and per rule, and what is left at zero (start-up and fixed costs).
 */

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalogue } from '../specs/report/catalogue-source.ts';
import { type Spread, spread } from './mock-bench.ts';
import { ROOT, startMockProcess } from './mock-process.ts';
import { PROFILE, UNREACHABLE_RATE_LIMIT } from './setups.ts';

const CLI = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
const CONFIG = join(ROOT, 'bench', 'suite.config.ts');

export const SUITE_TARGET_MS = 6_000;
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
  /** Rules selected (the rule series); undefined: the whole catalogue. */
  readonly rules?: number;
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

/** `… 600 cases + 12 shrinking in 401 ms (1526 cases/s) …` (specs/kit/fuzz-fixtures.ts). */
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
  /** Only these rules (the rule series; child target only). */
  readonly ruleIds?: readonly string[];
}

/** The longest any one run may take: start-up and a minute, plus 10 ms per fuzz case (100k cases: 17 min). */
export function runTimeoutMs(budget: number | undefined): number {
  return Math.min(20 * 60_000, 120_000 + 10 * (budget ?? 4000));
}

/**
 * The bundled profile for a mock whose limits are out of reach: no `rateLimit` (nothing in reach to declare, so
 * nothing paced), and room in `budget.maxRequests` for every case of `budget` (default 10,000 would stop a 20k run).
 */
function unlimitedProfile(dir: string, budget: number | undefined): string {
  const { rateLimit: _limit, $schema: _schema, ...rest } = PROFILE as typeof PROFILE & { $schema?: string };
  const cases = budget ?? rest.budget?.fuzzCases ?? 4000;
  const profile = {
    ...rest,
    $schema: join(ROOT, 'fixtures', 'schemas', 'profile.schema.json'),
    budget: { ...rest.budget, maxRequests: 3 * cases + 10_000, maxSeconds: 1800 },
  };
  const path = join(dir, 'profile.json');
  writeFileSync(path, JSON.stringify(profile));
  return path;
}

/** Playwright --grep for exactly these rules (by their `@rule:<id>` tag). */
function grepRules(ids: readonly string[]): string {
  const escaped = ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return `@rule:(?:${escaped.join('|')})(?=\\s|$)`;
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
  const timeoutMs = options.timeoutMs ?? runTimeoutMs(options.budget);
  const mock =
    options.target === 'child'
      ? await startMockProcess({ config: { rateLimit: UNREACHABLE_RATE_LIMIT } })
      : undefined;
  const args = [CLI, 'test', '--config', CONFIG, '--output', join(dir, 'out')];
  if (mock !== undefined) {
    env.BASE_URL = mock.url;
    env.GATECHECK_PROFILE = unlimitedProfile(dir, options.budget);
    args.push(WITHOUT_RATE_LIMIT_RULES);
    if (options.ruleIds !== undefined) args.push(`--grep=${grepRules(options.ruleIds)}`);
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
      ...(options.ruleIds === undefined ? {} : { rules: options.ruleIds.length }),
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
  /** Shares of the catalogue's rules (0–1] of the rule series, each at RULE_SERIES_BUDGET fuzz cases. */
  readonly ruleShares?: readonly number[];
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
  /** Wall time over fuzz cases (the growth series): seconds per 1,000 cases, seconds at zero, R². */
  readonly growthFit?: LineFit;
  readonly ruleSeries: readonly SuiteRunReport[];
  /** Wall time over rules selected (the rule series): seconds per rule, seconds at zero, R². */
  readonly ruleFit?: LineFit;
  readonly target: { readonly wallMs: number; readonly fuzzPerSecond: number; readonly met: boolean };
}

/** The fuzz budget of every run of the rule series. */
export const RULE_SERIES_BUDGET = 1000;

export interface LineFit {
  /** Seconds per unit of x (per 1,000 cases, or per rule). */
  readonly slope: number;
  /** Seconds at x = 0. */
  readonly intercept: number;
  readonly r2: number;
  readonly points: number;
}

/** Least-squares line through (x, seconds); undefined with fewer than two distinct x. */
export function fitLine(points: readonly (readonly [number, number])[]): LineFit | undefined {
  const n = points.length;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (const [x, y] of points) {
    sxx += (x - mx) ** 2;
    sxy += (x - mx) * (y - my);
    syy += (y - my) ** 2;
  }
  if (n < 2 || sxx === 0) return undefined;
  const slope = sxy / sxx;
  return {
    slope,
    intercept: my - slope * mx,
    r2: syy === 0 ? 1 : (sxy * sxy) / (sxx * syy),
    points: n,
  };
}

/** Every `1 / share`-th rule of the catalogue, `ratelimit.*` aside (they need the real limit). */
async function ruleSubset(share: number): Promise<string[]> {
  const ids = (await loadCatalogue()).rules.map((r) => r.id).filter((id) => !id.startsWith('ratelimit.'));
  const want = Math.max(1, Math.round(ids.length * Math.min(1, share)));
  return Array.from({ length: want }, (_, i) => ids[Math.floor((i * ids.length) / want)] as string);
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
  const ruleSeries: SuiteRunReport[] = [];
  for (const share of options.ruleShares ?? []) {
    const ruleIds = await ruleSubset(share);
    const run = await runSuiteOnce({ budget: RULE_SERIES_BUDGET, target: 'child', ruleIds });
    ruleSeries.push(run);
    options.log(`  ${ruleIds.length} rules, budget ${RULE_SERIES_BUDGET}: ${oneLine(run)}`);
  }
  const growthFit = fitLine(growth.map((r) => [r.fuzz.cases / 1000, r.wallMs / 1000]));
  const ruleFit = fitLine(ruleSeries.map((r) => [r.rules ?? 0, r.wallMs / 1000]));
  if (growthFit)
    options.log(
      `  growth: wall ≈ ${growthFit.intercept.toFixed(1)} s + ${growthFit.slope.toFixed(2)} s per 1,000 fuzz cases (R² ${growthFit.r2.toFixed(3)}, ${growthFit.points} runs)`,
    );
  if (ruleFit)
    options.log(
      `  rules: wall ≈ ${ruleFit.intercept.toFixed(1)} s + ${ruleFit.slope.toFixed(3)} s per rule at ${RULE_SERIES_BUDGET} fuzz cases (R² ${ruleFit.r2.toFixed(3)}, ${ruleFit.points} runs)`,
    );
  const wallMs = spread(defaultRuns.map((r) => r.wallMs));
  const fuzzPerSecond = spread(defaultRuns.map((r) => r.fuzz.perSecond));
  return {
    method:
      'playwright test in a child process with the default configuration (+ JSON reporter), the embedded mock, the default seed; wall time spawn → exit',
    defaultRuns,
    wallMs,
    fuzzPerSecond,
    growth: growth.sort((a, b) => (a.budget ?? 0) - (b.budget ?? 0)),
    ...(growthFit === undefined ? {} : { growthFit }),
    ruleSeries,
    ...(ruleFit === undefined ? {} : { ruleFit }),
    target: {
      wallMs: SUITE_TARGET_MS,
      fuzzPerSecond: FUZZ_TARGET_PER_SECOND,
      met: wallMs.median < SUITE_TARGET_MS && fuzzPerSecond.median >= FUZZ_TARGET_PER_SECOND,
    },
  };
}
