/**
 * The rate limiter: per route group and client key, fixed-window counters kept by rate-limiter-flexible,
 * plus the bans (docs/mock.md "Rate limits"): over the limit → 429; a client that keeps sending while limited
 * is banned for a while → 403. The groups and their counters are compiled in mock/access/rate-limit-groups.ts.
 *
 * Time. rate-limiter-flexible expires keys by `Date.now()`, but the mock has its own clock (tests advance it
 * instead of sleeping). So the window is ours: the counter key carries the window index computed from the
 * mock's clock, `<client key>:<floor(now / window)>`, and a new index is a fresh counter. The library's
 * `duration` is only garbage collection: window + 60 s. Fixed windows may let up to 2 × limit through around
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
 * client: its current window index, whether it went over the limit there, and its ban. With the in-memory
 * store each tracked client owns its counters of the current window only: the previous window's are deleted
 * when the client enters a new window, and an evicted client's with it. So however many distinct clients
 * arrive, memory stays bounded by `maxKeys`. At the cap the least recently seen client is forgotten (a
 * client that keeps sending stays at the front, so an address spray cannot erase an active abuser's count).
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
import { compileRoutes, GC_MARGIN_SECONDS, type Group, type RouteTable } from './rate-limit-groups.ts';
import type { RateLimitSettings } from './rate-limit-settings.ts';
import { type LimiterStore, MEMORY_STORE, type StoreStatus } from './rate-limit-store.ts';

export type { Group } from './rate-limit-groups.ts';
export { type LimiterStore, MEMORY_STORE } from './rate-limit-store.ts';

export type Verdict =
  /** `resetMs`: until the current window ends. */
  | { readonly kind: 'allowed'; readonly remaining: number; readonly resetMs: number }
  /** `by`: the counter that refused (the group, or its burst); `resetMs`: until that counter's window ends. */
  | { readonly kind: 'limited'; readonly resetMs: number; readonly by: Group }
  /** `retryAfterMs`: until the ban ends, and never before the window that is over its limit ends. */
  | { readonly kind: 'banned'; readonly resetMs: number; readonly retryAfterMs: number }
  /** The shared store failed and nothing answered in its place (`onUnavailable: refuse`). */
  | { readonly kind: 'unavailable'; readonly retryAfterMs: number };

interface ClientState {
  readonly group: Group;
  readonly key: string;
  /** Window index of the counters this client is using. */
  window: number;
  /** Burst window index (0 when the group has no burst). */
  burstWindow: number;
  /** The count went over the limit in `window` (the pre-credential check of an address reads this). */
  over: boolean;
  /** Mock-clock ms; 0 when not banned. */
  bannedUntil: number;
}

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
  /** Counts one request of `key`; never rejects (a failing store gives `unavailable`). */
  hit(group: Group, key: string, now: number): Promise<Verdict>;
  /**
   * The check before credentials: when this process already knows `key` to be banned, or over its limit in
   * the current window, counts the request and answers; otherwise undefined (synchronously: nothing to wait).
   */
  knownOver(group: Group, key: string, now: number): Promise<Verdict> | undefined;
  /** Forgets every count and ban (with a shared store: every key of this deployment's prefix). */
  reset(): Promise<void>;
  /** Replaces the settings (control API); counts and bans start again. Throws TypeError for bad settings. */
  configure(settings: RateLimitSettings): Promise<void>;
  status(now: number): RateLimiterStatus;
}

/** What a refusing store tells the client to wait (Retry-After) before trying again. */
const UNAVAILABLE_RETRY_MS = 1000;

export function createRateLimiter(
  initial: RateLimitSettings,
  router: Router,
  store: LimiterStore = MEMORY_STORE,
): RateLimiter {
  let settings = initial;
  let byRoute: RouteTable = compileRoutes(initial, router, store);
  // Bans in a shared store: one counter whose "points" hold the ban's end on the mock's clock.
  const bans: RateLimiterAbstract | undefined = store.local
    ? undefined
    : store.create({ keyPrefix: 'rl:ban', points: 1, duration: GC_MARGIN_SECONDS });

  const forget = (state: ClientState): void => {
    // With a local store the counters are this process's memory: release them now. Deletion is synchronous
    // for RateLimiterMemory; the promise only reports a store failure, which cannot happen in memory.
    if (!store.local) return;
    const { group, key, window } = state;
    void group.counter.delete(`${key}:${window}`).catch(() => undefined);
    void group.strikes.delete(`${key}:${window}`).catch(() => undefined);
    if (group.burst !== undefined)
      void group.burst.counter.delete(`${key}:${state.burstWindow}`).catch(() => undefined);
  };
  let clients = newClientCache(initial.maxKeys, forget);

  const track = (group: Group, key: string, window: number): ClientState => {
    const id = `${group.name} ${key}`;
    let state = clients.get(id);
    if (state === undefined) {
      state = { group, key, window, burstWindow: 0, over: false, bannedUntil: 0 };
      clients.set(id, state);
    } else if (state.window !== window) {
      forget(state);
      state.window = window;
      state.over = false;
    }
    return state;
  };

  // The ban was set to end no earlier than the window that caused it (below), so its end is the answer.
  const banned = (state: ClientState, now: number, windowEnd: number): Verdict => ({
    kind: 'banned',
    resetMs: windowEnd - now,
    retryAfterMs: state.bannedUntil - now,
  });

  const count = async (group: Group, key: string, now: number): Promise<Verdict> => {
    const window = Math.floor(now / group.windowMs);
    const windowEnd = (window + 1) * group.windowMs;
    const state = track(group, key, window);
    // With a shared store the store's ban is the truth (another instance's reset may have lifted it).
    if (store.local && state.bannedUntil > now) return banned(state, now, windowEnd);
    const banKey = `${group.name}:${key}`;
    const counterKey = `${key}:${window}`;
    let main: RateLimiterRes | undefined;
    if (bans === undefined || group.banMs === 0) main = await take(group.counter, counterKey);
    else {
      // The ban and the count are asked for together (one round trip to a shared store); a banned client's
      // point is given back, so banned requests are not counted.
      const read = store.peek?.(bans, banKey) ?? bans.get(banKey).then((res) => res?.consumedPoints ?? null);
      const [shared, counted] = await Promise.all([read, take(group.counter, counterKey)]);
      state.bannedUntil = shared ?? 0;
      if (state.bannedUntil > now) {
        await group.counter.reward(counterKey);
        return banned(state, now, windowEnd);
      }
      main = counted;
    }

    let limited: { resetMs: number; by: Group } | undefined;
    if (main === undefined) {
      state.over = true;
      limited = { resetMs: windowEnd - now, by: group };
    } else if (group.burst !== undefined) {
      const burst = group.burst;
      const burstWindow = Math.floor(now / burst.windowMs);
      if (store.local && state.burstWindow !== burstWindow) {
        void burst.counter.delete(`${key}:${state.burstWindow}`).catch(() => undefined);
      }
      state.burstWindow = burstWindow;
      if ((await take(burst.counter, `${key}:${burstWindow}`)) === undefined) {
        await group.counter.reward(counterKey);
        limited = { resetMs: (burstWindow + 1) * burst.windowMs - now, by: burst };
      }
    }
    if (limited === undefined) {
      const remaining = (main as RateLimiterRes).remainingPoints;
      return { kind: 'allowed', remaining, resetMs: windowEnd - now };
    }
    if (group.banMs > 0) {
      const struck = group.banAfter === 0 || (await take(group.strikes, `${key}:${window}`)) === undefined;
      if (struck) {
        // Never before the limiter's own reset: a ban shorter than the rest of the window would end in 429s.
        state.bannedUntil = now + Math.max(group.banMs, limited.resetMs);
        if (bans !== undefined) {
          const ttl = Math.ceil((state.bannedUntil - now) / 1000) + GC_MARGIN_SECONDS;
          await bans.set(banKey, state.bannedUntil, ttl);
        }
        return banned(state, now, windowEnd);
      }
    }
    return { kind: 'limited', ...limited };
  };

  const hit = async (group: Group, key: string, now: number): Promise<Verdict> => {
    try {
      return await count(group, key, now);
    } catch (error) {
      store.noteFailure?.(error);
      return { kind: 'unavailable', retryAfterMs: UNAVAILABLE_RETRY_MS };
    }
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
      await store.clear?.().catch((error: unknown) => store.noteFailure?.(error));
    },
    async configure(next) {
      const compiled = compileRoutes(next, router, store);
      await this.reset();
      settings = next;
      byRoute = compiled;
      if (next.maxKeys !== clients.max) clients = newClientCache(next.maxKeys, forget);
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
      const storeStatus = store.status?.();
      return {
        enabled: settings.enabled,
        store: store.name,
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

function newClientCache(max: number, forget: (state: ClientState) => void): LRUCache<string, ClientState> {
  return new LRUCache<string, ClientState>({
    max,
    // Evicted at the cap, or dropped by reset: release the counters too.
    dispose: (state) => forget(state),
  });
}
