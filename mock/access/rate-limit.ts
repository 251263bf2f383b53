/**
 * The rate limiter: per route group and client key, fixed-window counters — in this process
 * (mock/access/rate-limit-counts.ts) or in a shared store (mock/access/rate-limit-shared.ts) — plus the bans
 * (docs/mock.md "Rate limits"): over the limit → 429; a client that keeps sending while limited is banned for
 * a while → 403. The groups and their counters are compiled in mock/access/rate-limit-groups.ts.
 *
 * Time. The mock has its own clock (tests advance it instead of sleeping), so the window is ours:
 * `floor(now / window)` on the mock's clock, and a new index is a fresh count. Fixed windows may let up to
 * 2 × limit through around a boundary; the limit is meant for tests and stand-ins, where a predictable reset
 * beats smoothness.
 *
 * Burst. A group may add a burst limit: a second fixed-window count with a shorter window that divides the
 * first (fixed windows in memory and in Redis alike; rate-limiter-flexible's BurstyRateLimiter does the
 * opposite — lets a burst *past* the limit). The request is counted in the window first; when the burst count
 * then refuses it, the window's point is given back, so a client told to wait out the burst window finds room
 * in the window too.
 *
 * Bans. Every limited answer (429, by the window or the burst) is counted as a strike per client and window;
 * the answer that goes past `banAfter` bans the client for `banSeconds`, and never less than the rest of the
 * window that limited it. A banned client's requests are answered 403 without being counted, so when the ban
 * ends the quota it had is still there.
 *
 * Memory. A bounded LRU (lru-cache, `maxKeys` entries over all groups) holds what this process knows per
 * client: its current window index, whether it went over the limit there, and its ban. Without a shared
 * store the counts themselves live in that entry too, synchronously: a request counted in memory waits on no
 * promise and arms no timer, and a client entering a new window starts from zero. So however many distinct
 * clients arrive, memory stays bounded by `maxKeys`. At the cap the least recently seen client is forgotten (a
 * client that keeps sending stays at the front, so an address spray cannot erase an active abuser's count).
 *
 * Several instances. With a shared store the counts, strikes, failed attempts and bans add up across
 * instances; when the store fails (and no insurance limiter answers in its place) the verdict is
 * `unavailable`: the stage answers 503.
 */

import { LRUCache } from 'lru-cache';
import type { Route, Router } from '../routing/router.ts';
import { stateKeys } from './client-keys.ts';
import {
  type ClientState,
  countInProcess,
  enterWindow,
  newClientState,
  type PolicyStanding,
  type Verdict,
} from './rate-limit-counts.ts';
import { compileRoutes, type Group, type RouteTable } from './rate-limit-groups.ts';
import type { RateLimitSettings } from './rate-limit-settings.ts';
import { sharedCounting } from './rate-limit-shared.ts';
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

/** `store`: a shared store (Redis) holding counts and bans; undefined (default): counted in this process. */
export function createRateLimiter(
  initial: RateLimitSettings,
  router: Router,
  store?: LimiterStore,
): RateLimiter {
  let settings = initial;
  let byRoute: RouteTable = compileRoutes(initial, router, store);
  const countShared = store === undefined ? undefined : sharedCounting(store);
  let clients = newClientCache(initial.maxKeys);
  const stateKey = stateKeys();

  // A client window (mock/access/rate-limit-algorithms.ts) turns over on its own clock, not the mock's.
  const track = (group: Group, key: string, window: number | undefined): ClientState => {
    const id = stateKey(group.name, key);
    let state = clients.get(id);
    if (state === undefined) {
      state = newClientState(group, key, window ?? 0);
      clients.set(id, state);
    } else if (window !== undefined && state.window !== window) enterWindow(state, window);
    return state;
  };

  const hitOne = (group: Group, key: string, now: number): Verdict | Promise<Verdict> => {
    const state = track(
      group,
      key,
      group.algorithm === 'client-window' ? undefined : Math.floor(now / group.windowMs),
    );
    // A group has shared counters exactly when the limiter has a store (compileRoutes).
    return group.shared === undefined || countShared === undefined
      ? countInProcess(state, group, now)
      : countShared(group.shared, state, group, now);
  };

  // A group's `alongside` groups count the request after it (in this process: synchronous); the first that
  // refuses it answers. The verdict carries where each limit that counted it stands: the answer's rate-limit
  // fields name every policy (mock/access/rate-limit-headers.ts).
  const hit = (group: Group, key: string, now: number): Verdict | Promise<Verdict> => {
    const verdict = hitOne(group, key, now);
    if (group.alongside.length === 0 || verdict instanceof Promise || verdict.kind !== 'allowed')
      return verdict;
    const policies: PolicyStanding[] = [{ group, remaining: verdict.remaining, resetMs: verdict.resetMs }];
    for (const other of group.alongside) {
      const next = hitOne(other, key, now) as Verdict;
      if (next.kind === 'limited')
        return { ...next, policies: [...policies, { group: next.by, remaining: 0, resetMs: next.resetMs }] };
      if (next.kind !== 'allowed') return next;
      policies.push({ group: other, remaining: next.remaining, resetMs: next.resetMs });
    }
    return { ...verdict, policies };
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
      const state = clients.get(stateKey(group.name, key));
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

/** What this process knows of each client, bounded: an evicted client's in-process counts go with it. */
function newClientCache(max: number): LRUCache<string, ClientState> {
  return new LRUCache<string, ClientState>({ max });
}
