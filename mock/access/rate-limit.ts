/**
 * The rate limiter: per route group and client key, a fixed-window counter kept by rate-limiter-flexible,
 * plus the bans this process decides. docs/design.md "Status choices": over the limit → 429; a client that keeps
 * sending while limited is banned for a while → 403.
 *
 * Time. rate-limiter-flexible expires keys by `Date.now()`, but the mock has its own clock (tests advance it
 * instead of sleeping). So the window is ours: the counter key carries the window index computed from the
 * mock's clock, `<client key>:<floor(now / window)>`, and a new index is a fresh counter. The library's
 * `duration` is only garbage collection: window + 60 s, so a frozen or slowed test clock keeps its counts
 * for a minute of real time. Fixed windows may let up to 2 × limit through around a boundary; the limit is
 * meant for tests and stand-ins, where a predictable reset beats smoothness.
 *
 * Memory. A bounded LRU (lru-cache, `maxKeys` entries over all groups) holds what this process knows per
 * client: its current window index, whether it went over the limit there, and its ban. With the in-memory
 * store each tracked client owns exactly one counter: the previous window's counter is deleted when the
 * client enters a new window, and an evicted client's counter is deleted with it. So however many distinct
 * clients arrive, memory stays at most `maxKeys` small entries plus `maxKeys` counters. At the cap the least
 * recently seen client is forgotten (a client that keeps sending stays at the front, so an address spray
 * cannot erase an active abuser's count; a forgotten idle client merely starts from zero).
 *
 * Failed credential attempts (400/401) are counted per address in a companion counter of each group
 * (`<group>:failed`, limit `failedAttemptLimit`), apart from the address's or identity's requests.
 *
 * Several instances. The counters live behind `LimiterStore`: the default keeps them in memory
 * (RateLimiterMemory); `RateLimiterRedis` shares them between mock instances behind a load balancer, with
 * the same keys (`gatecheck:rl:<group>:<limit>/<window>:<client key>:<window index>`), so the count is
 * global. Bans are decided from that shared count (a request beyond `limit + banAfter` in the window), so
 * every instance that sees the client bans it too; each then keeps its ban for `banSeconds`.
 */

import { LRUCache } from 'lru-cache';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Route, Router } from '../routing/router.ts';
import { NO_GROUP, type RateLimitGroup, type RateLimitSettings } from './rate-limit-settings.ts';

/** Builds the counter of one group with rate-limiter-flexible's interface. */
export interface LimiterStore {
  /** Shown by the control API: `memory`, `redis`, … */
  readonly name: string;
  /**
   * True when the counters live in this process: a forgotten client's counter is deleted at once. A shared
   * store (Redis) says false: its keys expire by their TTL, and other instances may still be counting them.
   */
  readonly local: boolean;
  create(options: { keyPrefix: string; points: number; duration: number }): RateLimiterAbstract;
}

export const MEMORY_STORE: LimiterStore = {
  name: 'memory',
  local: true,
  create: (options) => new RateLimiterMemory(options),
};

/** Seconds a counter outlives its window in the store (see "Time" above). */
const GC_MARGIN_SECONDS = 60;

export interface Group extends RateLimitGroup {
  /** The policy name in the RateLimit fields: the group's name, `<name>:failed` for its failed attempts. */
  readonly name: string;
  /** What is counted, for details: `requests per client`, `failed credential attempts per address`. */
  readonly counts: string;
  readonly windowMs: number;
  readonly counter: RateLimiterAbstract;
  /** Where failed credential attempts of an address are counted (`limit` = failedAttemptLimit). */
  readonly failures: Group;
}

export type Verdict =
  /** `resetMs`: until the current window ends. */
  | { readonly kind: 'allowed'; readonly remaining: number; readonly resetMs: number }
  | { readonly kind: 'limited'; readonly resetMs: number }
  /** `retryAfterMs`: until the ban ends, and never before the window that is over its limit ends. */
  | { readonly kind: 'banned'; readonly resetMs: number; readonly retryAfterMs: number };

interface ClientState {
  readonly group: Group;
  readonly key: string;
  /** Window index of the counter this client is using. */
  window: number;
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
  readonly settings: RateLimitSettings;
  /** Client keys currently tracked, over all groups (at most `maxKeys`). */
  readonly tracked: number;
  /** Up to 100 bans still running. */
  readonly bans: readonly BanInfo[];
}

export interface RateLimiter {
  readonly settings: RateLimitSettings;
  /** The group limiting this route and method, or undefined when it is not limited. */
  groupFor(route: Route, method: string): Group | undefined;
  /** Counts one request of `key`; rejects only when the store fails. */
  hit(group: Group, key: string, now: number): Promise<Verdict>;
  /**
   * The check before credentials: when this process already knows `key` to be banned, or over its limit in
   * the current window, counts the request and answers; otherwise undefined (synchronously: nothing to wait).
   */
  knownOver(group: Group, key: string, now: number): Promise<Verdict> | undefined;
  /** Forgets every count and ban. */
  reset(): Promise<void>;
  /** Replaces the settings (control API); counts and bans start again. Throws TypeError for bad settings. */
  configure(settings: RateLimitSettings): Promise<void>;
  status(now: number): RateLimiterStatus;
}

export function createRateLimiter(
  initial: RateLimitSettings,
  router: Router,
  store: LimiterStore = MEMORY_STORE,
): RateLimiter {
  let settings = initial;
  let byRoute = compileRoutes(initial, router, store);

  const forget = (state: ClientState): void => {
    // With a local store the counter is this process's memory: release it now. Deletion is synchronous for
    // RateLimiterMemory; the promise only reports a store failure, which cannot happen in memory.
    if (store.local) void state.group.counter.delete(`${state.key}:${state.window}`).catch(() => undefined);
  };
  let clients = newClientCache(initial.maxKeys, forget);

  const track = (group: Group, key: string, window: number): ClientState => {
    const id = `${group.name} ${key}`;
    let state = clients.get(id);
    if (state === undefined) {
      state = { group, key, window, over: false, bannedUntil: 0 };
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

  const hit = (group: Group, key: string, now: number): Promise<Verdict> => {
    const window = Math.floor(now / group.windowMs);
    const windowEnd = (window + 1) * group.windowMs;
    const state = track(group, key, window);
    if (state.bannedUntil > now) return Promise.resolve(banned(state, now, windowEnd));
    return group.counter.consume(`${key}:${window}`).then(
      (res): Verdict => ({ kind: 'allowed', remaining: res.remainingPoints, resetMs: windowEnd - now }),
      (res: unknown): Verdict => {
        // rate-limiter-flexible rejects with a RateLimiterRes when over the limit, with an Error when the
        // store failed (the latter becomes the app's 500).
        if (!(res instanceof RateLimiterRes)) throw res;
        state.over = true;
        if (group.banSeconds > 0 && res.consumedPoints - group.limit > group.banAfter) {
          // Never before the limiter's own reset: a ban shorter than the rest of the window would end in 429s.
          state.bannedUntil = Math.max(now + group.banSeconds * 1000, windowEnd);
          return banned(state, now, windowEnd);
        }
        return { kind: 'limited', resetMs: windowEnd - now };
      },
    );
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
      const shared = store.local ? [] : [...clients.values()];
      clients.clear();
      await Promise.allSettled(shared.map((s) => s.group.counter.delete(`${s.key}:${s.window}`)));
    },
    async configure(next) {
      const compiled = compileRoutes(next, router, store);
      await this.reset();
      settings = next;
      byRoute = compiled;
      if (next.maxKeys !== clients.max) clients = newClientCache(next.maxKeys, forget);
    },
    status(now) {
      const bans: BanInfo[] = [];
      for (const state of clients.values()) {
        if (bans.length >= 100) break;
        if (state.bannedUntil > now) {
          bans.push({
            group: state.group.name,
            key: state.key,
            until: new Date(state.bannedUntil).toISOString(),
          });
        }
      }
      return { enabled: settings.enabled, store: store.name, settings, tracked: clients.size, bans };
    },
  };
}

function newClientCache(max: number, forget: (state: ClientState) => void): LRUCache<string, ClientState> {
  return new LRUCache<string, ClientState>({
    max,
    // Evicted at the cap, or dropped by reset: release the counter too.
    dispose: (state) => forget(state),
  });
}

/** Route → method → group, checked against the policy: every key names a route, every value a group. */
function compileRoutes(
  settings: RateLimitSettings,
  router: Router,
  store: LimiterStore,
): Map<Route, Map<string, Group>> {
  const groups = new Map<string, Group>();
  const build = (name: string, spec: RateLimitGroup, counts: string, failures?: Group): Group => {
    const group: { -readonly [K in keyof Group]: Group[K] } = {
      ...spec,
      name,
      counts,
      windowMs: spec.windowSeconds * 1000,
      counter: store.create({
        keyPrefix: `gatecheck:rl:${name}:${spec.limit}/${spec.windowSeconds}`,
        points: spec.limit,
        duration: spec.windowSeconds + GC_MARGIN_SECONDS,
      }),
      failures: failures as Group,
    };
    group.failures ??= group;
    return group;
  };
  for (const [name, spec] of Object.entries(settings.groups)) {
    if (name === NO_GROUP) throw new TypeError(`rateLimit.groups.${NO_GROUP}: reserved for unlimited routes`);
    // `:` is not allowed in group names, so the companion's name cannot clash with a configured group.
    const failures = build(
      `${name}:failed`,
      { ...spec, limit: spec.failedAttemptLimit },
      'failed credential attempts per address',
    );
    groups.set(name, build(name, spec, 'requests per client', failures));
  }

  const patterns = new Map(router.routes.map((route) => [route.pattern, route]));
  for (const [key, group] of Object.entries(settings.routes)) {
    const where = `rateLimit.routes[${JSON.stringify(key)}]`;
    const { method, pattern } = splitRouteKey(key);
    const route = patterns.get(pattern);
    if (route === undefined) {
      throw new TypeError(
        `${where}: the policy has no route ${pattern} (routes: ${[...patterns.keys()].join(', ')})`,
      );
    }
    if (method !== undefined && !route.rules.has(method)) {
      throw new TypeError(`${where}: ${pattern} does not answer ${method} (it answers ${route.allow})`);
    }
    if (group !== NO_GROUP && !groups.has(group)) {
      const known = [...groups.keys(), NO_GROUP].join(', ');
      throw new TypeError(`${where}: no group "${group}" (groups: ${known})`);
    }
  }

  const fallback = groups.get('default');
  const byRoute = new Map<Route, Map<string, Group>>();
  for (const route of router.routes) {
    const methods = new Map<string, Group>();
    for (const method of route.rules.keys()) {
      // HEAD is counted like GET (RFC 9110 §9.3.2: the same answer without content).
      const as = method === 'HEAD' ? 'GET' : method;
      const name = settings.routes[`${as} ${route.pattern}`] ?? settings.routes[route.pattern];
      const group = name === undefined ? fallback : name === NO_GROUP ? undefined : groups.get(name);
      if (group !== undefined) methods.set(method, group);
    }
    byRoute.set(route, methods);
  }
  return byRoute;
}

/** `POST /users` → { method: 'POST', pattern: '/users' }; `/users` → { pattern: '/users' }. */
function splitRouteKey(key: string): { method?: string; pattern: string } {
  const space = key.indexOf(' ');
  return space === -1
    ? { pattern: key }
    : { method: key.slice(0, space), pattern: key.slice(space + 1).trim() };
}
