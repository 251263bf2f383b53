/** reports/bench.md: the benchmark's tables, from reports/bench.json's content. */

import type { ProfileSummary } from './cpu-profile.ts';
import { type FuzzBenchReport, fuzzSection } from './fuzz-bench.ts';
import type { LoadResult } from './load.ts';
import type { MockBenchReport, Spread } from './mock-bench.ts';
import { type PoliteBenchReport, politeSection } from './polite-bench.ts';
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
    `Median over rounds (min–max). "× bare" is the case's requests/s over bare json-server's (NODE_ENV=production) **in the same round**. Latency in whole milliseconds (autocannon's resolution). Load average (1 min) ${mock.loadAverage.before.toFixed(1)} before, ${mock.loadAverage.after.toFixed(1)} after, on ${mock.environment?.cpus ?? 'this machine'}.`,
    '',
    '| case | answer | req/s | p50 ms | p99 ms | × bare | unexpected |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const c of mock.cases) {
    out.push(
      `| ${c.label}${c.authenticated ? ' ¹' : ''} | ${c.expectedStatus} | ${range(c.requestsPerSecond, int)} | ${range(c.latencyP50, String)} | ${range(c.latencyP99, String)} | ${range(c.ratio, (x) => x.toFixed(2))} | ${c.unexpected} |`,
    );
  }
  const worst = mock.cases.find((c) => c.id === mock.target.worst);
  out.push(
    '',
    `¹ Target: every authenticated case ≥ ${mock.target.ratio}× bare json-server — **${mock.target.met ? 'met' : 'missed'}** (lowest: ${worst?.label ?? mock.target.worst}, ${worst?.ratio.median.toFixed(2)}×).`,
    '',
  );
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
  const perTest = suite.defaultRuns[0]?.fuzz.perTestPerSecond;
  const marginal = marginalRate(suite.growth);
  out.push(
    '',
    "² Growth series: against a fresh mock in its own process with the rate limits out of reach (BASE_URL + the bundled profile) and without the `ratelimit.*` rules — the embedded mock's default limits (5,000 failed credential attempts, 300 requests per 10 s per client) stop a 20k-case run after a few thousand cases, which would measure the limiter. The default runs above include the `ratelimit.*` rules' fixed cost (a burst, then waiting out the window).",
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
