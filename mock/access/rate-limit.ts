/**
 * The rate limiter: per route group and client key, fixed-window counters (in this process, or in a shared
 * store through rate-limiter-flexible), plus the bans (docs/mock.md "Rate limits"): over the limit → 429; a client that keeps sending while limited
 * is banned for a while → 403. The groups and their counters are compiled in mock/access/rate-limit-groups.ts.
 *
 * Time. The mock has its own clock (tests advance it instead of sleeping), so the window is ours:
 * `floor(now / window)` on the mock's clock, and a new index is a fresh count. In a shared store, where
 * rate-limiter-flexible expires keys by `Date.now()`, the counter key carries that index,
 * `<client key>:<window>`, and the library's `duration` is only garbage collection: window + 60 s. Fixed windows may let up to 2 × limit through around
 * a boundary; the limit is meant for tests and stand-ins, where a predictable reset beats smoothness.
 *
 * Burst. A group may add a burst limit: a second fixed-window counter with a shorter window that divides the
 * first (rate-limiter-flexible's counters are fixed windows in every store, so the same two counters work in
 * memory and in Redis; its BurstyRateLimiter does the opposite — lets a burst *past* the limit). The request
 * is counted in the window first; when the burst counter then refuses it, the window's point is given back
 * (`reward`), so a client told to wait out the burst window finds room in the window too.
 *
 * Bans. Every limited answer (429, by the window or the burst) is counted in a third counter per client and
 * window (`strikes`, `banAfter` points); the answer that goes past `banAfter` bans the client for
 * `banSeconds`, and never less than the rest of the window that limited it. A banned client's requests are
 * answered 403 without being counted, so when the ban ends the quota it had is still there.
 *
 * Memory. A bounded LRU (lru-cache, `maxKeys` entries over all groups) holds what this process knows per
 * client: its current window index, whether it went over the limit there, and its ban. Without a shared
 * store the counts themselves live in that entry too (mock/access/rate-limit-counts.ts), synchronously: a
 * request counted in memory waits on no promise and arms no timer, and a client entering a new window starts
 * from zero. So however many distinct clients arrive, memory stays bounded by `maxKeys`. At the cap the least
 * recently seen client is forgotten (a client that keeps sending stays at the front, so an address spray
 * cannot erase an active abuser's count).
 *
 * Several instances. With a shared store (mock/access/rate-limit-redis.ts) the counters carry the same keys
 * in every instance, so counts, strikes and failed attempts add up; a ban is also written to the store
 * (`<group>:ban`, its end on the mock's clock as the value) and read before counting, so a ban earned on one
 * instance is answered on every other. When the store fails (and no insurance limiter answers in its place)
 * the verdict is `unavailable`: the stage answers 503.
 */

import { LRUCache } from 'lru-cache';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { Route, Router } from '../routing/router.ts';
import {
  bannedVerdict,
  type ClientState,
  countInProcess,
  enterWindow,
  newClientState,
  type Verdict,
} from './rate-limit-counts.ts';
import {
  compileRoutes,
  GC_MARGIN_SECONDS,
  type Group,
  type RouteTable,
  type SharedCounters,
} from './rate-limit-groups.ts';
import type { RateLimitSettings } from './rate-limit-settings.ts';
import type { LimiterStore, StoreStatus } from './rate-limit-store.ts';

export type { Verdict } from './rate-limit-counts.ts';
export type { Group } from './rate-limit-groups.ts';
export type { LimiterStore } from './rate-limit-store.ts';

export interface BanInfo {
  readonly group: string;
  readonly key: string;
  readonly until: string;
}

export interface RateLimiterStatus {
  readonly enabled: boolean;
  readonly store: string;
  /** Shared store only: whether sharing works now, and what stands in when it does not. */
  readonly storeStatus?: StoreStatus;
  readonly settings: RateLimitSettings;
  /** Client keys currently tracked, over all groups (at most `maxKeys`). */
  readonly tracked: number;
  /** Up to 100 bans this process knows of, still running. */
  readonly bans: readonly BanInfo[];
}

export interface RateLimiter {
  readonly settings: RateLimitSettings;
  /** The group limiting this route and method, or undefined when it is not limited. */
  groupFor(route: Route, method: string): Group | undefined;
  /**
   * Counts one request of `key`: synchronously when counting in this process, a promise with a shared store;
   * never throws or rejects (a failing store gives `unavailable`).
   */
  hit(group: Group, key: string, now: number): Verdict | Promise<Verdict>;
  /**
   * The check before credentials: when this process already knows `key` to be banned, or over its limit in
   * the current window, counts the request and answers; otherwise undefined (synchronously: nothing to wait).
   */
  knownOver(group: Group, key: string, now: number): Verdict | Promise<Verdict> | undefined;
  /** Forgets every count and ban (with a shared store: every key of this deployment's prefix). */
  reset(): Promise<void>;
  /** Replaces the settings (control API); counts and bans start again. Throws TypeError for bad settings. */
  configure(settings: RateLimitSettings): Promise<void>;
  status(now: number): RateLimiterStatus;
}

/** What a refusing store tells the client to wait (Retry-After) before trying again. */
const UNAVAILABLE_RETRY_MS = 1000;

/** `store`: a shared store (Redis) holding counts and bans; undefined (default): counted in this process. */
export function createRateLimiter(
  initial: RateLimitSettings,
  router: Router,
  store?: LimiterStore,
): RateLimiter {
  let settings = initial;
  let byRoute: RouteTable = compileRoutes(initial, router, store);
  // Bans in a shared store: one counter whose "points" hold the ban's end on the mock's clock.
  const bans: RateLimiterAbstract | undefined = store?.create({
    keyPrefix: 'rl:ban',
    points: 1,
    duration: GC_MARGIN_SECONDS,
  });
  let clients = newClientCache(initial.maxKeys);

  const track = (group: Group, key: string, window: number): ClientState => {
    const id = `${group.name} ${key}`;
    let state = clients.get(id);
    if (state === undefined) {
      state = newClientState(group, key, window);
      clients.set(id, state);
    } else if (state.window !== window) enterWindow(state, window);
    return state;
  };

  const countShared = async (
    shared: SharedCounters,
    state: ClientState,
    group: Group,
    now: number,
  ): Promise<Verdict> => {
    const { key, window } = state;
    const windowEnd = (window + 1) * group.windowMs;
    const banKey = `${group.name}:${key}`;
    const counterKey = `${key}:${window}`;
    let main: RateLimiterRes | undefined;
    if (bans === undefined || group.banMs === 0) main = await take(shared.counter, counterKey);
    else {
      // The store's ban is the truth (another instance's reset may have lifted it). The ban and the count are
      // asked for together (one round trip); a banned client's point is given back, so banned requests are
      // not counted.
      const read = store?.peek?.(bans, banKey) ?? bans.get(banKey).then((res) => res?.consumedPoints ?? null);
      const [stored, counted] = await Promise.all([read, take(shared.counter, counterKey)]);
      state.bannedUntil = stored ?? 0;
      if (state.bannedUntil > now) {
        await shared.counter.reward(counterKey);
        return bannedVerdict(state, now, windowEnd);
      }
      main = counted;
    }

    let limited: { resetMs: number; by: Group } | undefined;
    if (main === undefined) {
      state.over = true;
      limited = { resetMs: windowEnd - now, by: group };
    } else if (group.burst?.shared !== undefined) {
      const burst = group.burst;
      const burstWindow = Math.floor(now / burst.windowMs);
      state.burstWindow = burstWindow;
      if ((await take(group.burst.shared.counter, `${key}:${burstWindow}`)) === undefined) {
        await shared.counter.reward(counterKey);
        limited = { resetMs: (burstWindow + 1) * burst.windowMs - now, by: burst };
      }
    }
    if (limited === undefined) {
      const remaining = (main as RateLimiterRes).remainingPoints;
      return { kind: 'allowed', remaining, resetMs: windowEnd - now };
    }
    if (group.banMs > 0) {
      const struck = group.banAfter === 0 || (await take(shared.strikes, `${key}:${window}`)) === undefined;
      if (struck) {
        // Never before the limiter's own reset: a ban shorter than the rest of the window would end in 429s.
        state.bannedUntil = now + Math.max(group.banMs, limited.resetMs);
        if (bans !== undefined) {
          const ttl = Math.ceil((state.bannedUntil - now) / 1000) + GC_MARGIN_SECONDS;
          await bans.set(banKey, state.bannedUntil, ttl);
        }
        return bannedVerdict(state, now, windowEnd);
      }
    }
    return { kind: 'limited', ...limited };
  };

  // A store that failed, with nothing answering in its place (mock/access/rate-limit-redis.ts).
  const unavailable = (error: unknown): Verdict => {
    store?.noteFailure?.(error);
    return { kind: 'unavailable', retryAfterMs: UNAVAILABLE_RETRY_MS };
  };

  const hit = (group: Group, key: string, now: number): Verdict | Promise<Verdict> => {
    const state = track(group, key, Math.floor(now / group.windowMs));
    return group.shared === undefined
      ? countInProcess(state, group, now)
      : countShared(group.shared, state, group, now).catch(unavailable);
  };

  return {
    get settings() {
      return settings;
    },
    groupFor(route, method) {
      return byRoute.get(route)?.get(method);
    },
    hit,
    knownOver(group, key, now) {
      const state = clients.get(`${group.name} ${key}`);
      if (state === undefined) return undefined;
      if (state.bannedUntil > now || (state.over && state.window === Math.floor(now / group.windowMs))) {
        return hit(group, key, now);
      }
      return undefined;
    },
    async reset() {
      clients.clear();
      // A shared store that cannot be reached keeps its keys; they expire by their TTL.
      await store?.clear?.().catch((error: unknown) => store.noteFailure?.(error));
    },
    async configure(next) {
      const compiled = compileRoutes(next, router, store);
      await this.reset();
      settings = next;
      byRoute = compiled;
      if (next.maxKeys !== clients.max) clients = newClientCache(next.maxKeys);
    },
    status(now) {
      const list: BanInfo[] = [];
      for (const state of clients.values()) {
        if (list.length >= 100) break;
        if (state.bannedUntil > now) {
          list.push({
            group: state.group.name,
            key: state.key,
            until: new Date(state.bannedUntil).toISOString(),
          });
        }
      }
      const storeStatus = store?.status?.();
      return {
        enabled: settings.enabled,
        store: store?.name ?? 'memory',
        ...(storeStatus === undefined ? {} : { storeStatus }),
        settings,
        tracked: clients.size,
        bans: list,
      };
    },
  };
}

/**
 * One point of `counter`: the result when allowed, undefined when over the limit. rate-limiter-flexible
 * rejects with a RateLimiterRes when over the limit, with an Error when the store failed (rethrown).
 */
async function take(counter: RateLimiterAbstract, key: string): Promise<RateLimiterRes | undefined> {
  try {
    return await counter.consume(key);
  } catch (res) {
    if (res instanceof RateLimiterRes) return undefined;
    throw res;
  }
}

/** What this process knows of each client, bounded: an evicted client's in-process counts go with it. */
function newClientCache(max: number): LRUCache<string, ClientState> {
  return new LRUCache<string, ClientState>({ max });
}
