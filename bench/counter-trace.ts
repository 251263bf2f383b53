/**
 * When the target's busiest counter got its requests in one run, and what the target did not count — read from
 * the mock's request journal (bench/target-counters.ts), the mock counting as one of the limiters of
 * bench/limiters.ts, the run given the workers the CLI gives a paced run (cli/paced-workers.ts).
 *
 *   npx tsx bench/counter-trace.ts [--limiter credential|<composed target>] [--profile exact|minimal] [--span 5]
 *
 * `--limiter` is one of bench/limiters.ts's limiters or bench/composed-limiters.ts's targets (`credential-60`,
 * `drf`, …: the mock with its own limit, the real plugin in front where the target has one). Prints the
 * start-up (spawn → first request), the busiest counter's requests per span beside the run's, the requests no
 * limit of the mock counted, by method, path and status: the requests the run paces that the target answers
 * before its limit (unknown paths, OPTIONS, 405) — what the least time leaves out — and the longest span in
 * which the target received nothing, with the tests that held the workers through it (bench/quiet-span.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PACED_WORKERS } from '../cli/paced-workers.ts';
import { counterLabel } from '../specs/run/scopes.ts';
import { COMPOSED, type ComposedName, composedTarget } from './composed-limiters.ts';
import { startFastifyLimiter } from './fastify-limiter.ts';
import { LIMITERS, type LimiterName, limiterProfile, limiterSettings, profileDeclaring } from './limiters.ts';
import { ROOT, startMockProcess } from './mock-process.ts';
import { longestQuietSpan, testSpans } from './quiet-span.ts';
import { runSuiteProcess } from './suite-process.ts';
import { journalEntries, withJournal } from './target-counters.ts';

const { values } = parseArgs({
  options: {
    limiter: { type: 'string', default: 'credential' },
    profile: { type: 'string', default: 'exact' },
    span: { type: 'string', default: '5' },
  },
});
const limiter = values.limiter as string;
const kind = values.profile as 'exact' | 'minimal';
const spanMs = Number(values.span) * 1000;
const isLimiter = (name: string): name is LimiterName => (LIMITERS as readonly string[]).includes(name);
const isComposed = (name: string): name is ComposedName => (COMPOSED as readonly string[]).includes(name);
if (
  !(isLimiter(limiter) || isComposed(limiter)) ||
  (kind !== 'exact' && kind !== 'minimal') ||
  !(spanMs > 0)
) {
  console.error(
    `counter-trace: --limiter is one of ${[...LIMITERS, ...COMPOSED].join(', ')}; --profile exact or minimal; --span seconds > 0`,
  );
  process.exit(2);
}

const composed = isComposed(limiter) ? composedTarget(limiter, 1) : undefined;
const mock = await startMockProcess({
  config: withJournal({ rateLimit: composed?.mock ?? limiterSettings(limiter as LimiterName, 1) }),
});
const front =
  composed?.front === undefined
    ? undefined
    : await startFastifyLimiter({ ...composed.front, upstream: mock.url });
const reportDir = mkdtempSync(join(tmpdir(), 'gatecheck-counter-trace-'));
try {
  const spawnedAt = Date.now();
  const jsonFile = join(reportDir, 'playwright.json');
  const run = await runSuiteProcess({
    baseUrl: front?.url ?? mock.url,
    profile:
      composed === undefined
        ? limiterProfile(limiter as LimiterName, kind, 1)
        : profileDeclaring(kind === 'exact' ? composed.exact : composed.minimal),
    timeoutMs: 1_800_000,
    // The conformance reporter (the politeness section) and Playwright's JSON (each test's start and worker).
    args: [
      '--workers',
      String(PACED_WORKERS),
      '--reporter',
      `json,${join(ROOT, 'specs', 'report', `reporter.ts`)}`,
    ],
    env: { PLAYWRIGHT_JSON_OUTPUT_FILE: jsonFile },
  });
  const entries = await journalEntries(mock.url);
  const at = (e: { time: string }) => Date.parse(e.time);
  const start = Math.min(...entries.map(at));
  const counts = new Map<string, number>();
  for (const e of entries) if (e.limitKey) counts.set(e.limitKey, (counts.get(e.limitKey) ?? 0) + 1);
  const [busiest = '', busiestCount = 0] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? [];
  const last = Math.max(...entries.map(at));
  console.log(
    `${limiter} × ${kind}: wall ${(run.wallMs / 1000).toFixed(1)} s, spawn → first request ${((start - spawnedAt) / 1000).toFixed(1)} s, requests over ${((last - start) / 1000).toFixed(1)} s; the target's busiest counter ${busiest}: ${busiestCount} requests`,
  );
  const spans = Math.floor((last - start) / spanMs) + 1;
  const row = (filter: (e: (typeof entries)[number]) => boolean) => {
    const out = new Array<number>(spans).fill(0);
    for (const e of entries) if (filter(e)) out[Math.floor((at(e) - start) / spanMs)]++;
    return out;
  };
  const mine = row((e) => e.limitKey === busiest);
  const all = row(() => true);
  // The front's counter (the real plugin, where the target has one), in the same spans.
  const fronted = new Array<number>(spans).fill(0);
  for (const t of front?.countedAt() ?? []) {
    const i = Math.floor((t - start) / spanMs);
    if (i >= 0 && i < spans) fronted[i] = (fronted[i] ?? 0) + 1;
  }
  const frontColumn = front === undefined ? '' : ' the front counted |';
  console.log(
    `| from (s) | the busiest counter |${frontColumn} every request |\n| ---: | ---: |${front === undefined ? '' : ' ---: |'} ---: |`,
  );
  for (let i = 0; i < spans; i++)
    console.log(
      `| ${(i * spanMs) / 1000} | ${mine[i]} |${front === undefined ? '' : ` ${fronted[i]} |`} ${all[i]} |`,
    );
  const uncounted = new Map<string, number>();
  for (const e of entries) {
    if (e.limitKey !== undefined) continue;
    const key = `${e.method} ${e.path.slice(0, 48)} → ${e.status}`;
    uncounted.set(key, (uncounted.get(key) ?? 0) + 1);
  }
  console.log(
    `\nno limit of the target counted ${[...uncounted.values()].reduce((a, b) => a + b, 0)} requests:`,
  );
  for (const [key, n] of [...uncounted.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20))
    console.log(`  ${n} ${key}`);
  console.log("\nthe run's own counters, busiest first:");
  for (const c of [...(run.politeness?.counters ?? [])].sort((a, b) => b.requests - a.requests).slice(0, 3))
    console.log(`  ${counterLabel(c.counter)}: ${c.requests} requests, pace ${c.pacePerSecond ?? '—'}/s`);
  const quiet = longestQuietSpan(entries.map(at), testSpans(JSON.parse(readFileSync(jsonFile, 'utf8'))));
  if (quiet !== undefined) {
    const since = (ms: number) => ((ms - spawnedAt) / 1000).toFixed(1);
    console.log(
      `\nthe longest span with no request: ${since(quiet.fromMs)} → ${since(quiet.toMs)} s after spawn; the tests holding workers through it (${quiet.holding.length}):`,
    );
    for (const t of quiet.holding)
      console.log(
        `  worker ${t.worker}: ${t.file} › ${t.title.slice(0, 70)} (${since(t.startMs)} → ${since(t.endMs)} s)`,
      );
    console.log(`tests started after it: ${quiet.after.length}`);
  }
} finally {
  await front?.stop();
  await mock.stop();
  rmSync(reportDir, { recursive: true, force: true });
}
