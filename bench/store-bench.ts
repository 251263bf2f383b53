/**
 * The rate-limit store's cost (docs/mock.md "Several instances"): requests/s of an authenticated `GET /users`
 * (Bearer RS256) with the counters in memory versus in Redis (store.type redis, one redis-server on
 * loopback), with one mock instance and with two, in one run. The limiter is on with limits out of reach
 * (bench/setups.ts UNREACHABLE_RATE_LIMIT) and bans on, so every request pays for its count and the shared
 * ban's read, and none is refused.
 *
 * Method: each mock in a child process; with two instances, the connections are split between them and
 * their req/s added (as behind a load balancer). Cases run in rounds, order rotated each round; the ratio
 * of each Redis case is taken against the memory case with the same number of instances in the same round.
 */

import { type LoadResult, runLoad } from './load.ts';
import { type MockProcess, startMockProcess } from './mock-process.ts';
import { REDIS_MISSING, startRedis } from './redis-process.ts';
import { authenticatedUsersPolicy, authorizationValues, UNREACHABLE_RATE_LIMIT } from './setups.ts';

export interface StoreBenchOptions {
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly rounds: number;
  readonly connections: number;
  readonly log: (line: string) => void;
}

export interface StoreCase {
  readonly id: string;
  readonly store: 'memory' | 'redis';
  readonly instances: number;
  /** Summed over the instances, per round. */
  readonly requestsPerSecond: readonly number[];
  /** Against memory with the same instances, per round (memory itself: 1). */
  readonly ratio: readonly number[];
  /** Answers other than 200, and connection errors, over all rounds. */
  readonly unexpected: number;
}

export interface StoreBenchReport {
  readonly method: string;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly rounds: number;
  readonly cases: readonly StoreCase[];
  /** Set when the part was skipped (no redis-server). */
  readonly skipped?: string;
}

const CASES = [
  { id: 'memory×1', store: 'memory', instances: 1 },
  { id: 'redis×1', store: 'redis', instances: 1 },
  { id: 'memory×2', store: 'memory', instances: 2 },
  { id: 'redis×2', store: 'redis', instances: 2 },
] as const;

export async function benchStore(options: StoreBenchOptions): Promise<StoreBenchReport> {
  const method =
    'authenticated GET /users (Bearer RS256), limiter on with unreachable limits and bans on; memory vs Redis store, 1 and 2 instances (connections split, req/s summed); rounds rotated';
  const base = {
    method,
    connections: options.connections,
    durationSeconds: options.durationSeconds,
    rounds: options.rounds,
  };
  if (REDIS_MISSING !== undefined) {
    options.log(`  skipped: ${REDIS_MISSING}`);
    return { ...base, cases: [], skipped: REDIS_MISSING };
  }
  const redis = await startRedis();
  const mocks: MockProcess[] = [];
  try {
    // Bans on (as by default), out of reach: with Redis each request then reads the shared ban beside its count.
    const rateLimit = {
      ...UNREACHABLE_RATE_LIMIT,
      groups: { default: { ...UNREACHABLE_RATE_LIMIT.groups?.default, banSeconds: 30 } },
    };
    const config = (store: 'memory' | 'redis', prefix: string) => ({
      rateLimit,
      policy: authenticatedUsersPolicy(),
      ...(store === 'redis' ? { store: { redisUrl: redis.url, prefix } } : {}),
    });
    const servers: Record<string, MockProcess[]> = {};
    for (const c of CASES) {
      const group: MockProcess[] = [];
      for (let i = 0; i < c.instances; i++)
        group.push(await startMockProcess({ config: config(c.store, `bench-${c.store}-${c.instances}`) }));
      mocks.push(...group);
      servers[c.id] = group;
    }
    const { bearerRs256 } = await authorizationValues();
    const rps = new Map<string, number[]>(CASES.map((c) => [c.id, []]));
    const unexpected = new Map<string, number>(CASES.map((c) => [c.id, 0]));
    for (let round = 0; round < options.rounds; round++) {
      const order = CASES.map((_, i) => CASES[(i + round) % CASES.length] as (typeof CASES)[number]);
      for (const c of order) {
        const group = servers[c.id] as MockProcess[];
        const per = Math.max(1, Math.round(options.connections / group.length));
        const results: LoadResult[] = await Promise.all(
          group.map((m) =>
            runLoad({
              url: m.url,
              path: '/users',
              headers: { authorization: bearerRs256 },
              connections: per,
              durationSeconds: options.durationSeconds,
              warmupSeconds: options.warmupSeconds,
            }),
          ),
        );
        const sum = results.reduce((n, r) => n + r.requestsPerSecond, 0);
        const bad = results.reduce(
          (n, r) => n + r.errors + r.timeouts + (r.requests - (r.statuses['200'] ?? 0)),
          0,
        );
        rps.get(c.id)?.push(sum);
        unexpected.set(c.id, (unexpected.get(c.id) ?? 0) + Math.max(0, bad));
        options.log(
          `  round ${round + 1} ${c.id.padEnd(9)} ${Math.round(sum).toLocaleString('en-US')} req/s`,
        );
      }
    }
    const cases: StoreCase[] = CASES.map((c) => {
      const own = rps.get(c.id) ?? [];
      const memory = rps.get(`memory×${c.instances}`) ?? [];
      return {
        id: c.id,
        store: c.store,
        instances: c.instances,
        requestsPerSecond: own,
        ratio: own.map((x, i) => x / (memory[i] ?? x)),
        unexpected: unexpected.get(c.id) ?? 0,
      };
    });
    return { ...base, cases };
  } finally {
    await Promise.all(mocks.map((m) => m.stop()));
    await redis.stop();
  }
}

/** The report's section: median req/s and ratio per case, with the spread over rounds. */
export function storeSection(report: StoreBenchReport): string[] {
  const out = ['## Rate-limit store: memory vs Redis', '', report.method, ''];
  if (report.skipped !== undefined) return [...out, `Skipped: ${report.skipped}`, ''];
  out.push(
    '| case | req/s (median, min–max) | vs memory, same instances | unexpected |',
    '| --- | --- | --- | --- |',
  );
  for (const c of report.cases) {
    const r = spread(c.requestsPerSecond);
    const q = spread(c.ratio);
    out.push(
      `| ${c.id} | ${int(r.median)} (${int(r.min)}–${int(r.max)}) | ${q.median.toFixed(2)}× (${q.min.toFixed(2)}–${q.max.toFixed(2)}) | ${c.unexpected} |`,
    );
  }
  return [...out, ''];
}

const int = (x: number): string => Math.round(x).toLocaleString('en-US');

function spread(values: readonly number[]): { median: number; min: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return { median, min: sorted[0] ?? 0, max: sorted.at(-1) ?? 0 };
}
