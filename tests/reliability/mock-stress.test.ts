/**
 * The mock under stress, the short versions of `npm run soak`, against one mock in its own process
 * (--expose-gc: memory is sampled after a full GC), the rate limit out of reach:
 *  - load: 64 connections × 3 s of mixed authenticated traffic (every scheme, both identities, writes, 401s
 *    and 403s) → no connection error, every answer the status its request must get, memory flat;
 *  - bad input: 2,000 requests drawn from the suite's fuzz generators — malformed and wrong credentials of
 *    every scheme, raw CR/LF/NUL/obs-text octets over a raw socket, duplicate Authorization lines, forged and
 *    mutated JWTs, legal respellings — to the public, protected and admin paths → no crash, no 5xx (no fault
 *    is injected), every request answered, memory flat.
 */

import { expect, test } from '@playwright/test';
import { sendBadInput } from '../../bench/fuzzed-input.ts';
import { loadRun } from '../../bench/load-run.ts';
import { describeMemory, MiB, watchMemory } from '../../bench/memory-watch.ts';
import { type MockProcess, startMockProcess } from '../../bench/mock-process.ts';
import { UNREACHABLE_RATE_LIMIT } from '../../bench/setups.ts';

let mock: MockProcess;
test.beforeAll(async () => {
  mock = await startMockProcess({ config: { rateLimit: UNREACHABLE_RATE_LIMIT }, exposeGc: true });
});
test.afterAll(async () => {
  await mock?.stop();
});

test('64 connections × 3 s of mixed authenticated traffic → zero errors, zero unexpected statuses, memory flat', async () => {
  const run = await loadRun(mock, {
    connections: 64,
    durationSeconds: 3,
    warmupSeconds: 1,
    sampleEveryMs: 1_000,
    heapBoundBytes: 16 * MiB,
  });
  test.info().annotations.push({
    type: 'load',
    description: `${run.load.requests} requests, ${run.load.requestsPerSecond.toFixed(0)} req/s, p99 ${run.load.latencyP99} ms; ${describeMemory(run.memory)}`,
  });
  expect(run.load.requests, 'the run sent requests').toBeGreaterThan(1_000);
  expect({ errors: run.load.errors, timeouts: run.load.timeouts }).toEqual({ errors: 0, timeouts: 0 });
  expect(run.unexpectedByRequest, 'every answer has its expected status').toEqual([]);
  expect(run.requestsChecked).toBe(run.load.requests);
  expect(run.mockAlive).toBe(true);
  expect(run.mockStderr).not.toContain('unexpected error');
  expect(run.memory.heapGrowth, describeMemory(run.memory)).toBeLessThan(run.memory.boundBytes);
});

test('2,000 fuzzed requests (raw-socket ones included) → no crash, no 5xx, every one answered, memory flat', async () => {
  const watch = await watchMemory(mock, 1_000, 16 * MiB);
  const result = await sendBadInput({
    baseUrl: mock.url,
    count: 2_000,
    seed: 20261121,
    concurrency: 16,
    timeoutMs: 5_000,
    maxDurationMs: 20_000,
  });
  const memory = await watch.stop();
  test.info().annotations.push({
    type: 'bad input',
    description: `${result.sent} sent (${result.raw} raw) in ${result.durationMs} ms, ${result.kinds} kinds; answers ${JSON.stringify(result.statuses)}; ${describeMemory(memory)}`,
  });
  expect(result.sent).toBe(2_000);
  expect(result.raw, 'some cases went over a raw socket').toBeGreaterThan(0);
  expect(result.kinds, 'many generator kinds were drawn').toBeGreaterThan(10);
  expect(result.examples, 'no 5xx, no dropped request').toEqual([]);
  expect(result.serverErrors).toBe(0);
  expect(result.dropped).toEqual({});
  expect(mock.hasExited(), 'the mock is alive').toBe(false);
  expect(mock.stderr()).not.toContain('unexpected error');
  expect(memory.heapGrowth, describeMemory(memory)).toBeLessThan(memory.boundBytes);
});
