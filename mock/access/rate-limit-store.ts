/**
 * Where the rate limiter's counters live: an interface over rate-limiter-flexible's limiters. The default
 * keeps them in this process (RateLimiterMemory); mock/access/rate-limit-redis.ts shares them between mock
 * instances through Redis.
 */

import { type RateLimiterAbstract, RateLimiterMemory } from 'rate-limiter-flexible';

/** What the control API shows of the store. */
export interface StoreStatus {
  readonly name: string;
  /** True while counts and bans are shared with other instances (always false in memory). */
  readonly shared: boolean;
  /** Set while a shared store cannot be reached: what the mock does instead (`insurance`, `refuse`). */
  readonly fallback?: string;
}

/** Builds the counter of one group with rate-limiter-flexible's interface. */
export interface LimiterStore {
  /** Shown by the control API: `memory`, `redis`, … */
  readonly name: string;
  /**
   * True when the counters live in this process: a forgotten client's counter is deleted at once, and bans
   * are this process's alone. A shared store (Redis) says false: its keys expire by their TTL, other
   * instances may still be counting them, and bans are written to the store so every instance sees them.
   */
  readonly local: boolean;
  create(options: { keyPrefix: string; points: number; duration: number }): RateLimiterAbstract;
  /** Removes every key this deployment wrote (control API reset); absent for a local store. */
  clear?(): Promise<void>;
  status?(): StoreStatus;
}

export const MEMORY_STORE: LimiterStore = {
  name: 'memory',
  local: true,
  create: (options) => new RateLimiterMemory(options),
};
