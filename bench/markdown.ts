/** reports/bench.md: the benchmark's tables, from reports/bench.json's content. */

import type { ProfileSummary } from './cpu-profile.ts';
import { type FuzzBenchReport, fuzzSection } from './fuzz-bench.ts';
import type { LoadResult } from './load.ts';
import type { MockBenchReport, Spread } from './mock-bench.ts';
import { type PoliteBenchReport, politeSection } from './polite-bench.ts';
import { schemeSpreadLine, schemeSpreadTable } from './scheme-spread.ts';
import { type StoreBenchReport, storeSection } from './store-bench.ts';
import type { SuiteBenchReport, SuiteRunReport } from './suite-bench.ts';

export interface Environment {
  readonly date: string;
  readonly command: string;
  readonly node: string;
  readonly cpus: string;
  readonly platform: string;
}

export interface BenchReport {
  readonly environment: Environment;
  readonly mock?: MockBenchReport & { readonly environment?: Environment };
  readonly suite?: SuiteBenchReport & { readonly environment?: Environment };
  readonly store?: StoreBenchReport & { readonly environment?: Environment };
  readonly polite?: PoliteBenchReport & { readonly environment?: Environment };
  readonly fuzz?: FuzzBenchReport & { readonly environment?: Environment };
  readonly cpuProfiles?: Readonly<Record<string, ProfileSummary>>;
}

const int = (x: number): string => Math.round(x).toLocaleString('en-US');
const sec = (ms: number): string => (ms / 1000).toFixed(1);
const range = (s: Spread, f: (x: number) => string): string =>
  s.min === s.max ? f(s.median) : `${f(s.median)} (${f(s.min)}–${f(s.max)})`;
const statuses = (r: LoadResult): string =>
  Object.entries(r.statuses)
    .map(([status, n]) => `${status}×${int(n)}`)
    .join(' ');

function mockSection(mock: MockBenchReport & { environment?: Environment }): string[] {
  const out: string[] = [];
  out.push(
    `### Mock throughput — \`GET /users\`, ${mock.connections} connections, ${mock.durationSeconds} s per case after ${mock.warmupSeconds} s warm-up, ${mock.rounds} round${mock.rounds === 1 ? '' : 's'}`,
    '',
    `Median over rounds (min–max). "× bare" is the case's requests/s over bare json-server's (NODE_ENV=production) **in the same round**. "ceiling req/s" is a bare node:http server replaying the mock's recorded answer for the case (same status, header fields and body), measured right next to the case with the same request; "× ceiling" is the case over it. Latency in whole milliseconds (autocannon's resolution). Load average (1 min) ${mock.loadAverage.before.toFixed(1)} before, ${mock.loadAverage.after.toFixed(1)} after, on ${mock.environment?.cpus ?? 'this machine'}.`,
    '',
    '| case | answer | req/s | p50 ms | p99 ms | × bare | ceiling req/s | × ceiling | µs CPU/req | ceiling µs CPU/req | × ceiling by CPU | unexpected |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const c of mock.cases) {
    const marks = `${c.authenticated ? ' ¹' : ''}${c.ceilingTarget ? ' ²' : ''}`;
    const ceiling =
      c.ceiling === undefined
        ? '| – | –'
        : `| ${range(c.ceiling.requestsPerSecond, int)} | ${range(c.ceiling.ratio, (x) => x.toFixed(2))}`;
    const micros = (x: number): string => x.toFixed(1);
    const cpu = `| ${c.cpuPerRequest === undefined ? '–' : range(c.cpuPerRequest, micros)} | ${c.ceiling?.cpuPerRequest === undefined ? '–' : range(c.ceiling.cpuPerRequest, micros)} | ${c.ceiling?.cpuRatio === undefined ? '–' : range(c.ceiling.cpuRatio, (x) => x.toFixed(2))}`;
    out.push(
      `| ${c.label}${marks} | ${c.expectedStatus} | ${range(c.requestsPerSecond, int)} | ${range(c.latencyP50, String)} | ${range(c.latencyP99, String)} | ${range(c.ratio, (x) => x.toFixed(2))} ${ceiling} ${cpu} | ${c.unexpected} |`,
    );
  }
  const worst = mock.cases.find((c) => c.id === mock.target.worst);
  out.push(
    '',
    `¹ Target: every authenticated case ≥ ${mock.target.ratio}× bare json-server — **${mock.target.met ? 'met' : 'missed'}** (lowest: ${worst?.label ?? mock.target.worst}, ${worst?.ratio.median.toFixed(2)}×).`,
    '',
  );
  const line = ceilingTargetLine(mock);
  if (line !== undefined) out.push(line, '');
  if (mock.schemeSpread !== undefined) {
    out.push(
      '#### The schemes side by side — each authenticated scheme and the 401 path against bare node:http',
      '',
      "Each path's ceiling ratio of the table above (the path over bare node:http answering the same bytes, same round; by CPU: the ceiling's CPU per request over the path's), over the highest of the five in the same round: median over rounds (min–max). A path is behind in a round when it is more than 15 % behind by both readings.",
      '',
      ...schemeSpreadTable(mock.schemeSpread),
      '',
      schemeSpreadLine(mock.schemeSpread),
      '',
    );
  }
  if (mock.scaling.length > 0) {
    out.push(
      `#### Throughput by connections — \`GET /users\`, ${mock.durationSeconds} s each, one round`,
      '',
      '| connections | bare json-server req/s | p99 ms | mock, Bearer RS256 req/s | p99 ms | × bare | answers (mock) |',
      '| ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    );
    for (const p of mock.scaling) {
      out.push(
        `| ${p.connections} | ${int(p.bare.requestsPerSecond)} | ${p.bare.latencyP99} | ${int(p.bearer.requestsPerSecond)} | ${p.bearer.latencyP99} | ${p.ratio.toFixed(2)} | ${statuses(p.bearer)}${p.bearer.errors + p.bearer.timeouts ? `, errors ${p.bearer.errors + p.bearer.timeouts}` : ''} |`,
      );
    }
    out.push('');
  }
  return out;
}

/** The ceiling target's one line (console and bench.md); undefined for a report from before it existed. */
export function ceilingTargetLine(mock: MockBenchReport): string | undefined {
  const target = mock.ceilingTarget;
  if (target === undefined) return undefined;
  const worst = mock.cases.find((c) => c.id === target.worst);
  const apikey = target.apikeyOverBearer;
  const cpu = target.cpu;
  const worstCpu = cpu === undefined ? undefined : mock.cases.find((c) => c.id === cpu.worst);
  return (
    `² Target: each authenticated scheme, the 401 and the 400 path ≥ ${target.ratio.toFixed(2)}× its own ceiling — **${target.met ? 'met' : 'missed'}** (lowest: ${worst?.label ?? target.worst}, ${worst?.ceiling?.ratio.median.toFixed(2) ?? '?'}×); ` +
    `Apikey costs no more than Bearer (Apikey req/s over Bearer RS256's in the same round ≥ 1.00) — ${range(apikey, (x) => x.toFixed(2))}: **${target.apikeyMet ? 'met' : 'missed'}**.` +
    (cpu === undefined
      ? ''
      : ` By CPU per request (ceiling's over the case's): **${cpu.met ? 'met' : 'missed'}** (lowest: ${worstCpu?.label ?? cpu.worst}, ${cpu.worstRatio.toFixed(2)}×); Apikey's CPU per request over Bearer RS256's ${cpu.apikeyCostOverBearer.toFixed(2)}: **${cpu.apikeyMet ? 'met' : 'missed'}**.`)
  );
}

function runRow(run: SuiteRunReport, label: string): string {
  const p = run.phases;
  return `| ${label} | ${run.fuzz.cases.toLocaleString('en-US')} | ${sec(run.wallMs)} | ${sec(p.startup)} | ${sec(p.conformance.wallMs)} | ${sec(p.fuzz.wallMs)} | ${sec(p.overlapMs)} | ${sec(p.teardown)} | ${int(run.fuzz.perSecond)} | ${run.tests.passed}/${run.tests.failed}/${run.tests.skipped} |`;
}

/** Extra fuzz cases over extra fuzz time between the smallest and the largest budget of the growth series. */
export function marginalRate(
  growth: readonly SuiteRunReport[],
): { from: number; to: number; perSecond: number } | undefined {
  if (growth.length < 2) return undefined;
  const first = growth[0] as SuiteRunReport;
  const last = growth[growth.length - 1] as SuiteRunReport;
  const ms = last.phases.fuzz.wallMs - first.phases.fuzz.wallMs;
  if (ms <= 0) return undefined;
  return {
    from: first.fuzz.cases,
    to: last.fuzz.cases,
    perSecond: ((last.fuzz.cases - first.fuzz.cases) / ms) * 1000,
  };
}

function suiteSection(suite: SuiteBenchReport): string[] {
  const out: string[] = [
    '### Suite — full default run against the embedded mock (2 workers), and growth with the fuzz budget',
    '',
    'Wall = spawn → exit of `playwright test`. Phases: before the first test (Playwright start-up, global setup starting the mock, workers and their fixtures); the span during which conformance tests ran; the span during which fuzz tests ran; both at once (two workers); after the last test (teardown, reporters). Fuzz cases/s = cases sent (shrinking included) over the fuzz span, both workers together.',
    '',
    '| run (GATECHECK_BUDGET) | fuzz cases | wall s | before tests s | conformance s | fuzz s | overlap s | after tests s | fuzz cases/s | passed/failed/skipped |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  suite.defaultRuns.forEach((run, i) => {
    out.push(runRow(run, `default${suite.defaultRuns.length > 1 ? ` #${i + 1}` : ''}`));
  });
  for (const run of suite.growth) out.push(runRow(run, `${run.budget} ²`));
  for (const run of suite.ruleSeries ?? []) out.push(runRow(run, `${run.budget}, ${run.rules} rules ²`));
  const perTest = suite.defaultRuns[0]?.fuzz.perTestPerSecond;
  const marginal = marginalRate(suite.growth);
  out.push(
    '',
    "² Growth and rule series: against a fresh mock in its own process with the rate limits out of reach (BASE_URL + the bundled profile without `rateLimit`, `budget.maxRequests` sized to the cases) and without the `ratelimit.*` rules — the embedded mock's limits would turn a 100k-case run into a measurement of the limiter. The default runs above include the `ratelimit.*` rules' fixed cost (a burst, then waiting out the window)." +
      (suite.growthFit
        ? ` Growth: wall ≈ **${suite.growthFit.intercept.toFixed(1)} s + ${suite.growthFit.slope.toFixed(2)} s per 1,000 fuzz cases** (least squares, R² ${suite.growthFit.r2.toFixed(3)}).`
        : '') +
      (suite.ruleFit
        ? ` Rules: wall ≈ **${suite.ruleFit.intercept.toFixed(1)} s + ${suite.ruleFit.slope.toFixed(3)} s per rule** at 1,000 fuzz cases (R² ${suite.ruleFit.r2.toFixed(3)}).`
        : ''),
    '',
    `Targets: wall < ${sec(suite.target.wallMs)} s with ≥ 2,000 fuzz cases — median ${sec(suite.wallMs.median)} s (${sec(suite.wallMs.min)}–${sec(suite.wallMs.max)}): **${suite.wallMs.median < suite.target.wallMs ? 'met' : 'missed'}**; ` +
      `fuzzing ≥ ${int(suite.target.fuzzPerSecond)} cases/s — median ${int(suite.fuzzPerSecond.median)} cases/s at the default budget: **${suite.fuzzPerSecond.median >= suite.target.fuzzPerSecond ? 'met' : 'missed'}**` +
      `${perTest ? ` (each fuzz test, one worker, as its annotation states: median ${int(perTest.median)}, ${int(perTest.min)}–${int(perTest.max)} cases/s)` : ''}.` +
      `${marginal === undefined ? '' : ` Marginal rate from the growth series (extra cases over extra fuzz time, ${marginal.from.toLocaleString('en-US')} → ${marginal.to.toLocaleString('en-US')} cases): **${int(marginal.perSecond)} cases/s** — a small run also pays fixed costs (per fuzz test: plan preparation and probes, Playwright's between-test overhead; per worker: the fuzz fixture) that a large run spreads thin.`}`,
    '',
  );
  return out;
}

function profileSection(profiles: Readonly<Record<string, ProfileSummary>>): string[] {
  const out: string[] = ['### Where the mock spends its time (`--cpu-prof`)', ''];
  for (const [name, summary] of Object.entries(profiles)) {
    out.push(
      `**${name}** — ${int(summary.totalMs)} ms sampled, ${(summary.busy * 100).toFixed(0)}% busy (the profile spans the process's life, other cases' turns included). Self time by package, share of busy time: ${summary.byPackage
        .slice(0, 8)
        .map((s) => `${s.name} ${(s.share * 100).toFixed(1)}%`)
        .join(', ')}.`,
      '',
    );
  }
  return out;
}

export function renderMarkdown(report: BenchReport): string {
  const env = report.environment;
  const out: string[] = [
    '# gatecheck benchmark',
    '',
    `\`${env.command}\` — ${env.date}, Node ${env.node}, ${env.platform}, ${env.cpus}. Loopback only; servers in child processes, autocannon in the bench process.`,
    '',
  ];
  if (report.mock) out.push(...mockSection(report.mock));
  if (report.suite) out.push(...suiteSection(report.suite));
  if (report.store) out.push(...storeSection(report.store));
  if (report.polite) out.push(...politeSection(report.polite));
  if (report.fuzz) out.push(...fuzzSection(report.fuzz));
  if (report.cpuProfiles && Object.keys(report.cpuProfiles).length > 0)
    out.push(...profileSection(report.cpuProfiles));
  return `${out.join('\n').trimEnd()}\n`;
}
