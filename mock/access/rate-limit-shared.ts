/**
 * Counting in a shared store (mock/access/rate-limit-redis.ts), through rate-limiter-flexible: the same rules
 * as the in-process counts (mock/access/rate-limit-counts.ts), with the counter keys carrying the window index
 * (`<client key>:<window>`) so that every instance counts in the same place, and bans written to the store
 * (`<group>:ban`, the ban's end on the mock's clock as its value) so that a ban earned on one instance is
 * answered on every other. A store that fails, with no insurance limiter answering in its place, gives
 * `unavailable` (the stage answers 503); this never rejects.
 */

import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { banEnd, bannedVerdict, type ClientState, type Verdict } from './rate-limit-counts.ts';
import { GC_MARGIN_SECONDS, type Group, type SharedCounters } from './rate-limit-groups.ts';
import { rateLimiterFlexible } from './rate-limit-libraries.ts';
import type { LimiterStore } from './rate-limit-store.ts';

/** What a refusing store tells the client to wait (Retry-After) before trying again. */
const UNAVAILABLE_RETRY_MS = 1000;

export type SharedCount = (
  shared: SharedCounters,
  state: ClientState,
  group: Group,
  now: number,
) => Promise<Verdict>;

export function sharedCounting(store: LimiterStore): SharedCount {
  // One counter whose "points" hold a ban's end on the mock's clock.
  const bans = store.create({ keyPrefix: 'rl:ban', points: 1, duration: GC_MARGIN_SECONDS });
  const { RateLimiterRes: OverLimit } = rateLimiterFlexible();

  /**
   * One point of `counter`: the result when allowed, undefined when over the limit. rate-limiter-flexible
   * rejects with a RateLimiterRes when over the limit, with an Error when the store failed (rethrown).
   */
  const take = async (counter: RateLimiterAbstract, key: string): Promise<RateLimiterRes | undefined> => {
    try {
      return await counter.consume(key);
    } catch (res) {
      if (res instanceof OverLimit) return undefined;
      throw res;
    }
  };

  const count: SharedCount = async (shared, state, group, now) => {
    const { key, window } = state;
    const windowEnd = (window + 1) * group.windowMs;
    const banKey = `${group.name}:${key}`;
    const counterKey = `${key}:${window}`;
    let main: RateLimiterRes | undefined;
    if (group.banMs === 0) main = await take(shared.counter, counterKey);
    else {
      // The store's ban is the truth (another instance's reset may have lifted it). The ban and the count are
      // asked for together (one round trip); a banned client's point is given back, so banned requests are
      // not counted.
      const read = store.peek?.(bans, banKey) ?? bans.get(banKey).then((res) => res?.consumedPoints ?? null);
      const [stored, counted] = await Promise.all([read, take(shared.counter, counterKey)]);
      state.bannedUntil = stored ?? 0;
      if (state.bannedUntil > now) {
        await shared.counter.reward(counterKey);
        return bannedVerdict(state, now, windowEnd);
      }
      main = counted;
    }

    let limited: { resetMs: number; by: Group } | undefined;
    const burst = group.burst;
    if (main === undefined) {
      state.over = true;
      limited = { resetMs: windowEnd - now, by: group };
    } else if (burst?.shared !== undefined) {
      const burstWindow = Math.floor(now / burst.windowMs);
      state.burstWindow = burstWindow;
      if ((await take(burst.shared.counter, `${key}:${burstWindow}`)) === undefined) {
        await shared.counter.reward(counterKey);
        limited = { resetMs: (burstWindow + 1) * burst.windowMs - now, by: burst };
      }
    }
    // Not limited means the window's counter took the point (main is set).
    if (limited === undefined)
      return {
        kind: 'allowed',
        remaining: (main as RateLimiterRes).remainingPoints,
        resetMs: windowEnd - now,
      };
    if (group.banMs > 0) {
      const struck = group.banAfter === 0 || (await take(shared.strikes, `${key}:${window}`)) === undefined;
      if (struck) {
        state.bannedUntil = banEnd(group, limited, now);
        const ttl = Math.ceil((state.bannedUntil - now) / 1000) + GC_MARGIN_SECONDS;
        await bans.set(banKey, state.bannedUntil, ttl);
        return bannedVerdict(state, now, windowEnd);
      }
    }
    return { kind: 'limited', ...limited };
  };

  const unavailable = (error: unknown): Verdict => {
    store.noteFailure?.(error);
    return { kind: 'unavailable', retryAfterMs: UNAVAILABLE_RETRY_MS };
  };

  return (shared, state, group, now) => count(shared, state, group, now).catch(unavailable);
}
