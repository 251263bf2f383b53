/**
 * The ways real limiters count, in this process (docs/mock.md "Rate limiting: as real limiters count"), beside
 * the clock-aligned fixed window of mock/access/rate-limit-counts.ts. Each counts one request of one client and
 * says whether it is allowed, what is left, and when room comes back:
 *
 *  - `client-window` — @fastify/rate-limit's LocalStore and express-rate-limit's MemoryStore: a window of
 *    `windowSeconds` starts at the client's first request after the last window ended; every request counts,
 *    refused ones too (fastify's `current` keeps growing, which its ban reads);
 *  - `moving-window` — the `limits` library's MovingWindowRateLimiter (slowapi's `moving-window` strategy): a
 *    request is allowed while fewer than `limit` were allowed in the last `windowSeconds`; a refused one is not
 *    logged, so room comes back when the oldest allowed one leaves the window;
 *  - `leaky-bucket` — nginx's ngx_http_limit_req_module: the bucket leaks `limit / windowSeconds` requests per
 *    second; a client's first request is free, each next one adds one to its excess (less what leaked since),
 *    and an excess above `burstLimit` is refused without being counted. Without `nodelay` an allowed request
 *    waits until its excess has leaked (excess ÷ rate), as nginx delays it.
 */

import type { Group } from './rate-limit-groups.ts';
import type { ClientState } from './rate-limit-state.ts';

export type Counted =
  | {
      readonly kind: 'allowed';
      readonly remaining: number;
      readonly resetMs: number;
      readonly delayMs?: number;
    }
  | { readonly kind: 'limited'; readonly resetMs: number; readonly by: Group };

/** A new client window when the last one has ended: the count and the strikes towards a ban start again. */
export function clientWindow(state: ClientState, group: Group, now: number): Counted {
  if (state.windowStart === undefined || now >= state.windowStart + group.windowMs) {
    state.windowStart = now;
    state.window += 1;
    state.count = 0;
    state.strikes = 0;
    state.over = false;
  }
  state.count += 1;
  const resetMs = state.windowStart + group.windowMs - now;
  if (state.count > group.limit) {
    state.over = true;
    return { kind: 'limited', resetMs, by: group };
  }
  return { kind: 'allowed', remaining: group.limit - state.count, resetMs };
}

export function movingWindow(state: ClientState, group: Group, now: number): Counted {
  if (state.hits === undefined) state.hits = [];
  const hits = state.hits;
  while (hits.length > 0 && (hits[0] as number) <= now - group.windowMs) hits.shift();
  if (hits.length >= group.limit) {
    state.over = true;
    return { kind: 'limited', resetMs: (hits[0] as number) + group.windowMs - now, by: group };
  }
  hits.push(now);
  return {
    kind: 'allowed',
    remaining: group.limit - hits.length,
    resetMs: (hits[0] as number) + group.windowMs - now,
  };
}

export function leakyBucket(state: ClientState, group: Group, now: number): Counted {
  const perMs = group.limit / group.windowMs;
  const burst = group.bucketBurst;
  if (state.last === undefined) {
    // nginx: a new client's first request is accepted with an excess of 0.
    state.last = now;
    state.excess = 0;
    return { kind: 'allowed', remaining: Math.floor(burst), resetMs: 0 };
  }
  const excess = Math.max(0, (state.excess ?? 0) - perMs * (now - state.last)) + 1;
  if (excess > burst) {
    state.over = true;
    // Room for one more once the excess has leaked down to the burst.
    return { kind: 'limited', resetMs: Math.ceil((excess - burst) / perMs), by: group };
  }
  state.excess = excess;
  state.last = now;
  const delayMs = group.nodelay ? 0 : Math.ceil(excess / perMs);
  return {
    kind: 'allowed',
    remaining: Math.floor(burst - excess),
    resetMs: Math.ceil(excess / perMs),
    ...(delayMs > 0 ? { delayMs } : {}),
  };
}

/** When the client's current window (what a ban outlasts) ends, by the group's algorithm. */
export function windowEndOf(state: ClientState, group: Group, now: number): number {
  switch (group.algorithm) {
    case 'client-window':
      return (state.windowStart ?? now) + group.windowMs;
    case 'moving-window':
      return (state.hits?.[0] ?? now) + group.windowMs;
    case 'leaky-bucket':
      return now + Math.ceil((state.excess ?? 0) / (group.limit / group.windowMs));
    default:
      return (state.window + 1) * group.windowMs;
  }
}
