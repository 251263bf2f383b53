/**
 * The pace trace of one run, seen from the target's side: requests per second (and limited answers per
 * second) as a real nginx `limit_req` logged them, in front of the mock with its own limits out of reach.
 *
 *   npx tsx bench/pace-trace.ts --out /tmp/trace [--rate 6] [--burst 10] [--status 429] [--key address]
 *                               [--profile minimal|exact] [--timeout 900]
 *
 * Writes <out>.json (the per-second series, the run's verdict counts and politeness) and <out>.md (a table and
 * a text sparkline). The default: nginx at 6 r/s (60 per 10 s) per address, burst 10 nodelay, 429 without
 * Retry-After, and a minimal profile (`rateLimit: { limit: 60, windowSeconds: 10 }`).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startMockProcess } from './mock-process.ts';
import { type Arrival, NGINX_MISSING, type NginxLimit, startNginx } from './nginx-process.ts';
import { PROFILE, PROFILE_PATH, UNREACHABLE_RATE_LIMIT } from './setups.ts';
import { runSuiteProcess } from './suite-process.ts';

export interface SecondOfTrace {
  readonly second: number;
  readonly requests: number;
  readonly limited: number;
}

/** Arrivals bucketed per second from the first one. */
export function perSecond(arrivals: readonly Arrival[], limitedStatus: number): SecondOfTrace[] {
  if (arrivals.length === 0) return [];
  const start = Math.min(...arrivals.map((a) => a.at));
  const out: SecondOfTrace[] = [];
  for (const a of arrivals) {
    const s = Math.floor((a.at - start) / 1000);
    while (out.length <= s) out.push({ second: out.length, requests: 0, limited: 0 });
    const slot = out[s] as { second: number; requests: number; limited: number };
    slot.requests++;
    if (a.status === limitedStatus) slot.limited++;
  }
  return out;
}

/** One character per second: ' ' none, then ▁▂▃▄▅▆▇█ up to `top` requests. */
export function sparkline(series: readonly SecondOfTrace[], top: number): string {
  const bars = ' ▁▂▃▄▅▆▇█';
  return series.map((s) => bars[Math.min(8, Math.ceil((s.requests / Math.max(1, top)) * 8))] ?? '█').join('');
}

/** Mean requests/s over consecutive spans of `span` seconds. */
export function spans(series: readonly SecondOfTrace[], span: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < series.length; i += span) {
    const part = series.slice(i, i + span);
    const req = part.reduce((n, s) => n + s.requests, 0);
    const lim = part.reduce((n, s) => n + s.limited, 0);
    out.push(`| ${i}–${i + part.length} s | ${(req / part.length).toFixed(2)} | ${req} | ${lim} |`);
  }
  return out;
}

export function profileFor(kind: 'minimal' | 'exact', limit: NginxLimit): unknown {
  const { rateLimit: _bundled, ...rest } = PROFILE;
  const perWindow = limit.perMinute
    ? { limit: limit.rate, windowSeconds: 60 }
    : { limit: limit.rate * 10, windowSeconds: 10 };
  return {
    ...rest,
    $schema: PROFILE_PATH.replace(/mock\.profile\.json$/, 'schemas/profile.schema.json'),
    rateLimit:
      kind === 'minimal'
        ? perWindow
        : {
            ...perWindow,
            key: limit.key === 'route' ? 'endpoint' : 'address',
            burst: limit.burst,
          },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      rate: { type: 'string' },
      burst: { type: 'string' },
      status: { type: 'string' },
      key: { type: 'string' },
      profile: { type: 'string' },
      timeout: { type: 'string' },
    },
  });
  if (NGINX_MISSING) throw new Error(NGINX_MISSING);
  const out = values.out ?? '/tmp/gatecheck-pace-trace';
  const limit: NginxLimit = {
    rate: Number(values.rate ?? 6),
    burst: Number(values.burst ?? 10),
    nodelay: true,
    status: Number(values.status ?? 429) as 429 | 503,
    key: values.key === 'route' ? 'route' : 'address',
  };
  const kind = values.profile === 'exact' ? 'exact' : 'minimal';
  const profile = profileFor(kind, limit);
  const mock = await startMockProcess({ config: { rateLimit: UNREACHABLE_RATE_LIMIT } });
  const nginx = await startNginx({ upstream: mock.url, limit });
  try {
    const run = await runSuiteProcess({
      baseUrl: nginx.url,
      profile,
      timeoutMs: Number(values.timeout ?? 900) * 1000,
    });
    const arrivals = nginx.arrivals();
    const series = perSecond(arrivals, limit.status);
    const failed = run.rules.filter((r) => r.verdict === 'fail');
    const skipped = run.rules.filter((r) => r.verdict === 'skip');
    const summary = {
      date: new Date().toISOString(),
      limit,
      profile: (profile as { rateLimit: unknown }).rateLimit,
      exitCode: run.exitCode,
      killed: run.killed,
      wallMs: run.wallMs,
      requests: arrivals.length,
      limited: arrivals.filter((a) => a.status === limit.status).length,
      politeness: run.politeness,
      failed: failed.map((r) => `${r.id} (${r.level}): ${r.reason ?? ''}`.slice(0, 300)),
      skipped: skipped.map((r) => `${r.id}: ${r.reason ?? ''}`.slice(0, 300)),
      series,
    };
    writeFileSync(`${out}.json`, `${JSON.stringify(summary, null, 2)}\n`);
    const top = Math.max(...series.map((s) => s.requests), 1);
    const md = [
      `# Pace trace — nginx limit_req ${limit.rate} r/s burst ${limit.burst} nodelay, ${limit.status}, per ${limit.key}; ${kind} profile ${JSON.stringify(summary.profile)}`,
      '',
      `${summary.date}; exit ${run.exitCode}${run.killed ? ' (killed)' : ''}; wall ${(run.wallMs / 1000).toFixed(1)} s; ${summary.requests} requests at nginx, ${summary.limited} limited (${limit.status}); ${failed.length} rules failed, ${skipped.length} skipped.`,
      '',
      `Politeness as the run reported it: ${JSON.stringify(run.politeness)}`,
      '',
      `Requests per second, one character a second (█ = ${top}):`,
      '',
      '```',
      sparkline(series, top),
      '```',
      '',
      '| span | requests/s | requests | limited |',
      '| --- | ---: | ---: | ---: |',
      ...spans(series, 10),
      '',
      '## Failed rules',
      '',
      ...summary.failed.map((f) => `- ${f}`),
      '',
      '## Skipped rules',
      '',
      ...summary.skipped.map((f) => `- ${f}`),
      '',
    ].join('\n');
    writeFileSync(`${out}.md`, md);
    process.stdout.write(`${md.split('\n').slice(0, 12).join('\n')}\n…\nwritten: ${out}.json, ${out}.md\n`);
  } finally {
    await nginx.stop();
    await mock.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
