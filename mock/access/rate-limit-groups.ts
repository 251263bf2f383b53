/**
 * The rate limiter's groups, compiled from the settings: for each group its counters (requests, burst,
 * failed credential attempts, limited answers before a ban) and the route → method → group table, checked
 * against the policy (every key names a route, every value a group).
 */

import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Route, Router } from '../routing/router.ts';
import {
  BUNDLED_ROUTES,
  KEY_WORDS,
  NO_GROUP,
  type RateLimitAlgorithm,
  type RateLimitGroup,
  type RateLimitKey,
  type RateLimitSettings,
  splitRouteKey,
} from './rate-limit-settings.ts';
import type { LimiterStore } from './rate-limit-store.ts';

/**
 * Seconds a counter outlives its window in the store. Windows are the mock clock's (mock/access/rate-limit.ts
 * "Time"); the store's expiry only collects garbage, so a frozen or slowed test clock keeps its counts for a
 * minute of real time.
 */
export const GC_MARGIN_SECONDS = 60;

export interface Group {
  /** The policy name in the RateLimit fields: the group's name; `<name>:burst`, `<name>:failed` for its companions. */
  readonly name: string;
  /** What is counted, for details: `requests per client`, `failed credential attempts per address`. */
  readonly counts: string;
  readonly key: RateLimitKey;
  readonly algorithm: RateLimitAlgorithm;
  /** The status of a limited answer (429, or 503 as nginx's default `limit_req_status`). */
  readonly status: 429 | 503;
  /** `leaky-bucket`: requests held beyond the rate (nginx `burst=`), and whether they are served at once. */
  readonly bucketBurst: number;
  readonly nodelay: boolean;
  readonly limit: number;
  readonly windowSeconds: number;
  readonly windowMs: number;
  readonly banAfter: number;
  /** 0: no bans. */
  readonly banMs: number;
  /**
   * The group's counters in a shared store; undefined when counting in this process
   * (mock/access/rate-limit-counts.ts).
   */
  readonly shared: SharedCounters | undefined;
  /** The shorter window of a burst limit; its own `burst` and `failures` are undefined and itself. */
  readonly burst: Group | undefined;
  /** Where failed credential attempts of an address are counted (`limit` = failedAttemptLimit). */
  readonly failures: Group;
  /** The groups that count the same requests after this one (`alongside`); empty for most. */
  readonly alongside: readonly Group[];
}

export interface SharedCounters {
  readonly counter: RateLimiterAbstract;
  /**
   * Limited answers per client and window (`banAfter` points): the one that goes past it earns the ban.
   * Counted in the store, so the answers of every instance add up.
   */
  readonly strikes: RateLimiterAbstract;
}

export type RouteTable = Map<Route, Map<string, Group>>;

/** A number of seconds with millisecond precision, as milliseconds. */
export const toMs = (seconds: number): number => Math.round(seconds * 1000);

/** `store`: a shared store holding the counters; undefined: counted in this process. */
export function compileRoutes(
  settings: RateLimitSettings,
  router: Router,
  store: LimiterStore | undefined,
): RouteTable {
  const groups = new Map<string, Group>();
  const build = (
    name: string,
    spec: RateLimitGroup,
    counts: string,
    companions: { burst?: Group; failures?: Group },
  ): Group => {
    const prefix = `rl:${name}:${spec.limit}/${spec.windowSeconds}`;
    const duration = Math.ceil(spec.windowSeconds) + GC_MARGIN_SECONDS;
    const group: { -readonly [K in keyof Group]: Group[K] } = {
      name,
      counts,
      key: spec.key ?? 'identity',
      algorithm: spec.algorithm ?? 'fixed-window',
      status: spec.status ?? 429,
      bucketBurst: spec.algorithm === 'leaky-bucket' ? (spec.burstLimit ?? 0) : 0,
      nodelay: spec.nodelay ?? true,
      limit: spec.limit,
      windowSeconds: spec.windowSeconds,
      windowMs: toMs(spec.windowSeconds),
      banAfter: spec.banAfter,
      banMs: toMs(spec.banSeconds),
      shared:
        store === undefined
          ? undefined
          : {
              counter: store.create({ keyPrefix: prefix, points: spec.limit, duration }),
              strikes: store.create({
                keyPrefix: `${prefix}:strikes`,
                points: Math.max(1, spec.banAfter),
                duration,
              }),
            },
      burst: companions.burst,
      failures: companions.failures as Group,
      alongside: [],
    };
    if (group.windowMs < 1)
      throw new TypeError(`rateLimit.groups.${name}.windowSeconds: must be at least 0.001`);
    group.failures ??= group;
    return group;
  };
  for (const [name, spec] of Object.entries(settings.groups)) {
    if (name === NO_GROUP) throw new TypeError(`rateLimit.groups.${NO_GROUP}: reserved for unlimited routes`);
    // `:` is not allowed in group names, so a companion's name cannot clash with a configured group.
    checkAlgorithm(name, spec, store);
    // Failed attempts are counted in fixed windows, whatever the group's own algorithm.
    const failures = build(
      `${name}:failed`,
      {
        ...spec,
        limit: spec.failedAttemptLimit,
        algorithm: 'fixed-window',
        burstLimit: undefined,
        status: undefined,
      } as RateLimitGroup,
      'failed credential attempts per address',
      {},
    );
    const fixed = (spec.algorithm ?? 'fixed-window') === 'fixed-window';
    const burst = spec.burstLimit === undefined || !fixed ? undefined : buildBurst(name, spec, build);
    const counts = `requests per ${KEY_WORDS[spec.key ?? 'identity']}`;
    groups.set(name, build(name, spec, counts, { burst, failures }));
  }

  linkAlongside(settings, groups, store);

  const patterns = new Map(router.routes.map((route) => [route.pattern, route]));
  for (const [key, group] of Object.entries(settings.routes)) {
    const where = `rateLimit.routes[${JSON.stringify(key)}]`;
    const { method, pattern } = splitRouteKey(key);
    const route = patterns.get(pattern);
    if (route === undefined) {
      if (BUNDLED_ROUTES[key] === group) continue;
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
  const byRoute: RouteTable = new Map();
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

/** What only the in-process counts can do, and what only some algorithms take. */
function checkAlgorithm(name: string, spec: RateLimitGroup, store: LimiterStore | undefined): void {
  const algorithm = spec.algorithm ?? 'fixed-window';
  const where = `rateLimit.groups.${name}`;
  if (algorithm !== 'fixed-window' && store !== undefined)
    throw new TypeError(
      `${where}.algorithm: ${algorithm} is counted in this process only; a shared store (Redis) counts fixed windows`,
    );
  if (spec.burstWindowSeconds !== undefined && algorithm !== 'fixed-window')
    throw new TypeError(`${where}.burstWindowSeconds: only a fixed-window group has a burst window`);
  if (spec.burstLimit !== undefined && (algorithm === 'client-window' || algorithm === 'moving-window'))
    throw new TypeError(
      `${where}.burstLimit: a ${algorithm} group has no burst (fixed-window or leaky-bucket do)`,
    );
  if (spec.nodelay !== undefined && algorithm !== 'leaky-bucket')
    throw new TypeError(`${where}.nodelay: only a leaky-bucket group delays or serves its burst`);
}

type Build = (
  name: string,
  spec: RateLimitGroup,
  counts: string,
  companions: { burst?: Group; failures?: Group },
) => Group;

/**
 * The burst window must divide the window: the instant a window ends is then also the end of a burst window,
 * so a client told to wait for the window's end (Retry-After) finds both counters fresh.
 */
function buildBurst(name: string, spec: RateLimitGroup, build: Build): Group {
  const seconds = spec.burstWindowSeconds ?? 1;
  const where = `rateLimit.groups.${name}`;
  const burstMs = toMs(seconds);
  if (burstMs < 1 || toMs(spec.windowSeconds) % burstMs !== 0) {
    throw new TypeError(
      `${where}.burstWindowSeconds: must divide windowSeconds (${spec.windowSeconds}), got ${seconds}`,
    );
  }
  const burst = build(
    `${name}:burst`,
    { ...spec, limit: spec.burstLimit as number, windowSeconds: seconds },
    `requests per ${KEY_WORDS[spec.key ?? 'identity']} in a burst`,
    {},
  );
  return burst;
}

/** Each group's `alongside` names, resolved: groups of the same key, counted in this process. */
function linkAlongside(
  settings: RateLimitSettings,
  groups: ReadonlyMap<string, Group>,
  store: LimiterStore | undefined,
): void {
  for (const [name, spec] of Object.entries(settings.groups)) {
    if (spec.alongside === undefined || spec.alongside.length === 0) continue;
    const where = `rateLimit.groups.${name}.alongside`;
    if (store !== undefined)
      throw new TypeError(
        `${where}: groups counted alongside are counted in this process only, not in a shared store`,
      );
    const group = groups.get(name) as Group & { alongside: Group[] };
    const linked: Group[] = [];
    for (const other of spec.alongside) {
      const found = groups.get(other);
      if (found === undefined || other === name)
        throw new TypeError(`${where}: no other group "${other}" (groups: ${[...groups.keys()].join(', ')})`);
      if (found.key !== group.key)
        throw new TypeError(
          `${where}: "${other}" counts per ${found.key}, "${name}" per ${group.key}: one key for both`,
        );
      linked.push(found);
    }
    (group as { alongside: readonly Group[] }).alongside = linked;
  }
}
