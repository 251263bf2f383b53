/**
 * Where the rate limiter's counters live when they are shared between mock instances: an interface over
 * rate-limiter-flexible's limiters (mock/access/rate-limit-redis.ts, through Redis). Without one the limiter
 * counts in this process (mock/access/rate-limit-counts.ts).
 */

import type { RateLimiterAbstract } from 'rate-limiter-flexible';

/** What the control API shows of the store. */
export interface StoreStatus {
  readonly name: string;
  /** True while counts and bans are shared with other instances (always false in memory). */
  readonly shared: boolean;
  /** Where (a Redis URL without its password) and under which key prefix. */
  readonly url?: string;
  readonly prefix?: string;
  /** Set while a shared store cannot be reached: what the mock does instead (`insurance`, `refuse`), and why. */
  readonly fallback?: string;
  readonly reason?: string;
}

/** Builds the counters of one group in a shared store, with rate-limiter-flexible's interface. */
export interface LimiterStore {
  /** Shown by the control API: `redis`, … */
  readonly name: string;
  create(options: { keyPrefix: string; points: number; duration: number }): RateLimiterAbstract;
  /** Removes every key this deployment wrote (control API reset). */
  clear?(): Promise<void>;
  /**
   * The points stored under `key` of `limiter` (null: none), read the cheapest way the store has; a shared
   * store falls back to `limiter.get` (and so to its insurance limiter) when it cannot read.
   */
  peek?(limiter: RateLimiterAbstract, key: string): Promise<number | null>;
  /** Told when an operation failed and nothing answered in the store's place. */
  noteFailure?(error: unknown): void;
  status?(): StoreStatus;
}

/**
 * The config file's `store` section (and `--redis-url`, `--redis-prefix`, `--redis-unavailable`): where the
 * counters and bans live. `memory` (default): this process. `redis`: shared by every instance on that Redis.
 */
export interface StoreSettings {
  readonly type: 'memory' | 'redis';
  /** `redis://[user:password@]host:port[/db]`; required for `redis`. */
  readonly redisUrl?: string;
  /** Namespace of this deployment's keys in Redis (no `:`): two mocks with different prefixes never meet. */
  readonly prefix: string;
  /** Redis unreachable or slow: `insurance` (count in memory per instance) or `refuse` (503 + Retry-After). */
  readonly onUnavailable: 'insurance' | 'refuse';
  /** The longest a Redis command may take before it counts as failed. */
  readonly timeoutMs: number;
}

export const DEFAULT_STORE: StoreSettings = {
  type: 'memory',
  prefix: 'gatecheck',
  onUnavailable: 'insurance',
  timeoutMs: 500,
};

/** A `redisUrl` alone implies `type: "redis"`. */
export function mergeStore(base: StoreSettings, file: Partial<StoreSettings> | undefined): StoreSettings {
  if (file === undefined) return base;
  const type = file.type ?? (file.redisUrl !== undefined ? 'redis' : base.type);
  return { ...base, ...file, type };
}
