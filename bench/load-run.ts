/**
 * A load run: mixed authenticated traffic (bench/mixed-traffic.ts) from autocannon against a mock in its
 * own process, with the mock's memory sampled throughout. The soak run does 64 connections × 60 s;
 * tests/reliability/load.test.ts a few seconds.
 */

import autocannon from 'autocannon';
import { type LoadResult, summarise } from './load.ts';
import { type MemoryReport, watchMemory } from './memory-watch.ts';
import { instrument, mixedRequests } from './mixed-traffic.ts';
import type { MockProcess } from './mock-process.ts';

export interface LoadRunOptions {
  readonly connections: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly sampleEveryMs: number;
  readonly heapBoundBytes: number;
}

export interface LoadRunReport {
  readonly load: LoadResult;
  readonly unexpected: number;
  readonly unexpectedByRequest: readonly string[];
  readonly requestsChecked: number;
  readonly memory: MemoryReport;
  readonly mockAlive: boolean;
  readonly mockStderr: string;
}

export async function loadRun(mock: MockProcess, options: LoadRunOptions): Promise<LoadRunReport> {
  const expected = await mixedRequests();
  const base = { url: mock.url, connections: options.connections, pipelining: 1, timeout: 10 };
  if (options.warmupSeconds > 0) {
    await autocannon({ ...base, duration: options.warmupSeconds, requests: instrument(expected).requests });
  }
  const { requests, tally } = instrument(expected);
  const watch = await watchMemory(mock, options.sampleEveryMs, options.heapBoundBytes);
  const result = await autocannon({ ...base, duration: options.durationSeconds, requests });
  const memory = await watch.stop();
  return {
    load: summarise(result),
    unexpected: tally.unexpected(),
    unexpectedByRequest: tally.describe(),
    requestsChecked: tally.answered(),
    memory,
    mockAlive: !mock.hasExited(),
    mockStderr: mock.stderr(),
  };
}
