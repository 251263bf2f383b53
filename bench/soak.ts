/**
 * `npm run soak` — the long reliability runs (docs/performance.md "Soak"), bounded in time and count:
 *  - load: 64 connections × 60 s of mixed authenticated traffic → zero errors, zero unexpected statuses,
 *    the mock's memory flat;
 *  - bad input: 100,000 requests from the fuzz generators (raw-socket ones included) → the mock never
 *    crashes, never answers 5xx (no fault injected), memory flat.
 * Each against a fresh mock in its own process (--expose-gc, so memory is sampled after a full GC).
 * Writes reports/soak.json; exit code 1 when a criterion fails.
 *
 *   npm run soak
 *   npm run soak -- --only load --seconds 20
 *   npm run soak -- --only bad-input --requests 20000
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type BadInputResult, sendBadInput } from './fuzzed-input.ts';
import { type LoadRunReport, loadRun } from './load-run.ts';
import { describeMemory, type MemoryReport, MiB, watchMemory } from './memory-watch.ts';
import { ROOT, startMockProcess } from './mock-process.ts';
import { UNREACHABLE_RATE_LIMIT } from './setups.ts';

/** Retained heap may grow this much over a run and still count as flat (caches filling to their bounds). */
const HEAP_BOUND = 16 * MiB;
/** The mock's own line for each unexpected error it answered with 500 (mock/config.ts onError). */
const UNEXPECTED_500 = /unexpected error answered with 500/g;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      seconds: { type: 'string' },
      connections: { type: 'string' },
      requests: { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
    },
    strict: true,
  });
  if (values.only !== undefined && values.only !== 'load' && values.only !== 'bad-input')
    throw new TypeError(`--only: expected load or bad-input, got "${values.only}"`);
  const seconds = Number(values.seconds ?? 60);
  const connections = Number(values.connections ?? 64);
  const requests = Number(values.requests ?? 100_000);
  const seed = Number(values.seed ?? 20261121);
  for (const [name, n] of Object.entries({ seconds, connections, requests, seed }))
    if (!Number.isInteger(n) || (name !== 'seed' && n < 1))
      throw new TypeError(`--${name}: expected an integer ≥ 1`);
  const log = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  const report: {
    date: string;
    command: string;
    load?: LoadRunReport & { pass: boolean };
    badInput?: BadInputResult & {
      memory: MemoryReport;
      mockAlive: boolean;
      unexpected500Lines: number;
      pass: boolean;
    };
  } = {
    date: new Date().toISOString(),
    command: `npm run soak${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
  };
  let ok = true;

  if (values.only !== 'bad-input') {
    log(`load: ${connections} connections × ${seconds} s of mixed authenticated traffic…`);
    const mock = await startMockProcess({ config: { rateLimit: UNREACHABLE_RATE_LIMIT }, exposeGc: true });
    try {
      const run = await loadRun(mock, {
        connections,
        durationSeconds: seconds,
        warmupSeconds: 5,
        sampleEveryMs: 5_000,
        heapBoundBytes: HEAP_BOUND,
      });
      const errors = run.load.errors + run.load.timeouts;
      const pass = errors === 0 && run.unexpected === 0 && run.memory.flat && run.mockAlive;
      ok &&= pass;
      report.load = { ...run, pass };
      log(
        `  ${run.load.requests.toLocaleString('en-US')} requests, ${run.load.requestsPerSecond.toFixed(0)} req/s, p50 ${run.load.latencyP50} ms, p99 ${run.load.latencyP99} ms, max ${run.load.latencyMax} ms`,
      );
      log(
        `  answers ${JSON.stringify(run.load.statuses)}; connection errors ${run.load.errors}, timeouts ${run.load.timeouts}`,
      );
      log(
        `  unexpected statuses: ${run.unexpected}${run.unexpected ? ` (${run.unexpectedByRequest.join('; ')})` : ''} of ${run.requestsChecked.toLocaleString('en-US')} checked`,
      );
      log(`  memory: ${describeMemory(run.memory)}`);
      log(`  → ${pass ? 'PASS' : 'FAIL'}`);
    } finally {
      await mock.stop();
    }
  }

  if (values.only !== 'load') {
    log(`bad input: ${requests.toLocaleString('en-US')} fuzzed requests (seed ${seed}), 32 in flight…`);
    const mock = await startMockProcess({ config: { rateLimit: UNREACHABLE_RATE_LIMIT }, exposeGc: true });
    try {
      // Warm-up: the first requests fill the verified-credential caches and compile the hot paths.
      await sendBadInput({
        baseUrl: mock.url,
        count: 2_000,
        seed: seed - 1_000_000,
        concurrency: 32,
        timeoutMs: 5_000,
        maxDurationMs: 60_000,
      });
      const watch = await watchMemory(mock, 5_000, HEAP_BOUND);
      const result = await sendBadInput({
        baseUrl: mock.url,
        count: requests,
        seed,
        concurrency: 32,
        timeoutMs: 5_000,
        maxDurationMs: 15 * 60_000,
        progressEvery: 20_000,
        onProgress: (sent) => log(`  … ${sent.toLocaleString('en-US')}`),
      });
      const memory = await watch.stop();
      const mockAlive = !mock.hasExited();
      const unexpected500Lines = (mock.stderr().match(UNEXPECTED_500) ?? []).length;
      const droppedTotal = Object.values(result.dropped).reduce((a, b) => a + b, 0);
      const pass =
        mockAlive &&
        result.serverErrors === 0 &&
        unexpected500Lines === 0 &&
        memory.flat &&
        result.sent === requests;
      ok &&= pass;
      report.badInput = { ...result, memory, mockAlive, unexpected500Lines, pass };
      log(
        `  ${result.sent.toLocaleString('en-US')} sent in ${(result.durationMs / 1000).toFixed(1)} s (${((result.sent / result.durationMs) * 1000).toFixed(0)}/s), ${result.raw.toLocaleString('en-US')} over raw sockets, ${result.kinds} generator kinds`,
      );
      log(
        `  answers ${JSON.stringify(result.statuses)}; 5xx ${result.serverErrors}; no answer ${droppedTotal}${droppedTotal ? ` ${JSON.stringify(result.dropped)}` : ''}`,
      );
      if (result.examples.length) log(`  examples: ${result.examples.join(' | ')}`);
      log(`  mock alive: ${mockAlive}; its "unexpected error" lines: ${unexpected500Lines}`);
      log(`  memory: ${describeMemory(memory)}`);
      log(`  → ${pass ? 'PASS' : 'FAIL'}`);
    } finally {
      await mock.stop();
    }
  }

  const outDir = values.out ?? join(ROOT, 'reports');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'soak.json'), `${JSON.stringify(report, null, 2)}\n`);
  log(`written: ${join(outDir, 'soak.json')}`);
  return ok ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`soak: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof TypeError ? 2 : 1;
  },
);
