/**
 * One measured load: autocannon, in this process, against a server in another process, on loopback, for a
 * bounded time. Returns what the report shows: requests/s, p50/p99 latency, answers by status, errors.
 */

import autocannon, { type AutocannonRequest, type Result } from 'autocannon';

export interface LoadOptions {
  readonly url: string;
  readonly path?: string;
  readonly method?: string;
  readonly headers?: Record<string, string>;
  /** A cycle of requests each connection sends in turn (instead of path/method/headers). */
  readonly requests?: AutocannonRequest[];
  readonly connections: number;
  /** Seconds measured. */
  readonly durationSeconds: number;
  /** Seconds of the same load before, not counted (JIT, caches, connection set-up). */
  readonly warmupSeconds: number;
  /** Seconds before one request counts as timed out. */
  readonly timeoutSeconds?: number;
}

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly requests: number;
  /** Milliseconds (autocannon records whole milliseconds). */
  readonly latencyP50: number;
  readonly latencyP99: number;
  readonly latencyMax: number;
  readonly statuses: Readonly<Record<string, number>>;
  /** Connection errors (refused, reset) and timeouts: zero in every healthy run. */
  readonly errors: number;
  readonly timeouts: number;
  readonly durationSeconds: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const base = {
    url: `${options.url}${options.path ?? ''}`,
    connections: options.connections,
    pipelining: 1,
    timeout: options.timeoutSeconds ?? 10,
    ...(options.method === undefined ? {} : { method: options.method }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    ...(options.requests === undefined ? {} : { requests: options.requests }),
  };
  if (options.warmupSeconds > 0) await autocannon({ ...base, duration: options.warmupSeconds });
  return summarise(await autocannon({ ...base, duration: options.durationSeconds }));
}

export function summarise(result: Result): LoadResult {
  const statuses: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats)) statuses[status] = count;
  const requests = Object.values(statuses).reduce((a, b) => a + b, 0);
  return {
    requestsPerSecond: result.duration > 0 ? requests / result.duration : 0,
    requests,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    latencyMax: result.latency.max,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    durationSeconds: result.duration,
  };
}
