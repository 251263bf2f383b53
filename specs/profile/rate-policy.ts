/**
 * The profile's `rateLimit`, resolved once (docs/profile.md "rateLimit"): one entry or a list of them, each with
 * its defaults applied, the burst the rate-limit rules send (which identity, where, under which entry), and
 * whether the target bans. The run's scheduler (specs/run/), its request buckets, the fuzz settings and the
 * rate-limit rules all read this object, never `profile.rateLimit` itself. `ratePolicyOf` is a plain function
 * of the resolved profile, so it plugs in wherever the profile is resolved.
 */
import type { Endpoint, Profile, RateLimitEntry, RateLimitKey } from './types.ts';

export type { RateLimitKey } from './types.ts';

/** Which requests an entry counts. */
export type AppliesTo = 'all' | 'endpoint' | 'anonymous' | 'authenticated';

/** One declared limit, defaults applied. */
export interface RateEntry {
  /** Its place in the list (0 for a single `rateLimit`). */
  readonly index: number;
  /** How reports name it: the profile's `name`, else `limit 2` — with its figures: `limit 2 (100 per 60 s)`. */
  readonly label: string;
  readonly limit: number;
  readonly windowSeconds: number;
  readonly burst?: number;
  /** Undefined: not declared (the scheduler learns it). */
  readonly key?: RateLimitKey;
  readonly appliesTo: AppliesTo;
  /** `appliesTo: endpoint`: the one path it counts (relative to the base URL). */
  readonly onlyPath?: string;
  /** Path templates it counts (`/users/{id}`); undefined: every path. */
  readonly routes?: readonly string[];
}

/** What the rate-limit rules' burst needs: who sends it, where, and the limit it meets there. */
export interface BurstPlan {
  readonly identity: 'admin' | 'user' | 'ratelimit';
  /** Undefined when the profile names no protected endpoint and no `rateLimit.endpoint`. */
  readonly endpoint: Endpoint | undefined;
  /** The entry that applies to the burst's endpoint and meets it first (the smallest limit). */
  readonly entry: RateEntry;
  /**
   * The entries a burst with no limited answer must go past before that says anything: `entry` alone, unless
   * several limits apply and the profile says of none which requests it counts (limit and window only, no
   * `key`, `appliesTo` or `routes`) — then each of them, since the target may count the burst's requests
   * under any one alone (DRF's anonymous rate never counts an authenticated burst).
   */
  readonly conclusiveBeyond: readonly RateEntry[];
  readonly banAfter?: number;
}

export interface RatePolicy {
  /** Empty: no limit declared. */
  readonly entries: readonly RateEntry[];
  /** The target bans (403) after limiting: `seconds` when the profile says how long, `after` how many. */
  readonly ban?: { readonly seconds?: number; readonly after?: number };
  /** Some entry's limiter answers 503, not 429. */
  readonly limiterStatus?: 503;
  /** Undefined without a declared limit. */
  readonly burst?: BurstPlan;
  /** Route templates the profile names (`/users/{id}`): requests to a matching path count per template. */
  readonly templates: readonly string[];
  /**
   * Paths a request must be served on while no ban is in force — what tells a ban's 403 from a refusal
   * (specs/run/scheduler.ts): `anonymous`, the public endpoint, without credentials; `identity`, the
   * protected endpoint, which every declared identity may read, with the same credential.
   */
  readonly controls: { readonly anonymous?: string; readonly identity?: string };
}

const listOf = (rl: Profile['rateLimit']): readonly RateLimitEntry[] =>
  rl === undefined ? [] : Array.isArray(rl) ? rl : [rl as RateLimitEntry];

/** `rateLimit` as written, always a list (one entry, several, or none). */
export const rateLimitList = (profile: Profile): readonly RateLimitEntry[] => listOf(profile.rateLimit);

/** The endpoints the declared limits name (`rateLimit.endpoint` of each entry). */
export function rateLimitEndpoints(profile: Profile): Endpoint[] {
  return listOf(profile.rateLimit).flatMap((e) => (e.endpoint === undefined ? [] : [e.endpoint]));
}

/** The declared limits of `profile`, resolved once. */
export function ratePolicyOf(profile: Profile): RatePolicy {
  const raw = listOf(profile.rateLimit);
  const several = raw.length > 1;
  const entries = raw.map((e, index): RateEntry => {
    const name = e.name ?? (several ? `limit ${index + 1}` : 'limit');
    const appliesTo = e.appliesTo ?? 'all';
    const onlyPath = appliesTo === 'endpoint' ? (e.endpoint ?? profile.endpoints.protected)?.path : undefined;
    return {
      index,
      label: `${name} (${e.limit} per ${e.windowSeconds} s${e.key === undefined ? '' : ` per ${e.key}`})`,
      limit: e.limit,
      windowSeconds: e.windowSeconds,
      ...(e.burst === undefined ? {} : { burst: e.burst }),
      ...(e.key === undefined ? {} : { key: e.key }),
      appliesTo,
      ...(onlyPath === undefined ? {} : { onlyPath }),
      ...(e.routes === undefined ? {} : { routes: e.routes }),
    };
  });
  const banSeconds = raw.find((e) => e.banSeconds !== undefined)?.banSeconds;
  const banAfter = raw.find((e) => e.banAfter !== undefined)?.banAfter;
  const templates = new Set<string>();
  for (const e of raw) for (const r of e.routes ?? []) if (isTemplate(r)) templates.add(r);
  for (const path of [
    ...Object.values(profile.endpoints).map((e) => (e as Endpoint | undefined)?.path),
    ...Object.keys(profile.methods ?? {}),
  ])
    if (path !== undefined && isTemplate(path)) templates.add(path);
  // The collection's items are one route (`/users/{id}`, or its `itemPath`), as a limiter that counts per route
  // counts them (slowapi per Starlette route, a gateway per route template): the ids the item-path rules send are
  // requests to one counter, not one counter each.
  const collection = profile.endpoints.collection;
  if (collection !== undefined)
    templates.add(collection.itemPath ?? `${collection.path.replace(/\/+$/, '')}/{id}`);
  return {
    entries,
    ...(banSeconds !== undefined || banAfter !== undefined
      ? {
          ban: {
            ...(banSeconds === undefined ? {} : { seconds: banSeconds }),
            ...(banAfter === undefined ? {} : { after: banAfter }),
          },
        }
      : {}),
    ...(raw.some((e) => e.status === 503) ? { limiterStatus: 503 as const } : {}),
    ...(entries.length === 0 ? {} : { burst: burstPlan(profile, raw, entries, banAfter) }),
    templates: [...templates],
    controls: {
      ...(profile.endpoints.public === undefined ? {} : { anonymous: profile.endpoints.public.path }),
      ...(profile.endpoints.protected === undefined ? {} : { identity: profile.endpoints.protected.path }),
    },
  };
}

function burstPlan(
  profile: Profile,
  raw: readonly RateLimitEntry[],
  entries: readonly RateEntry[],
  banAfter: number | undefined,
): BurstPlan {
  const identity = raw.find((e) => e.identity !== undefined)?.identity ?? 'ratelimit';
  const endpoint = raw.find((e) => e.endpoint !== undefined)?.endpoint ?? profile.endpoints.protected;
  const authenticated = (endpoint?.schemes?.length ?? 0) > 0;
  const applying =
    endpoint === undefined ? entries : entries.filter((e) => entryApplies(e, endpoint.path, authenticated));
  const candidates = applying.length > 0 ? applying : entries;
  // The one a burst meets first: the fewest requests per window (then the shortest window).
  const entry = smallest(candidates);
  const saysWhatItCounts = (e: RateEntry): boolean => {
    const r = raw[e.index];
    return r?.key !== undefined || r?.appliesTo !== undefined || r?.routes !== undefined;
  };
  const stated = candidates.filter(saysWhatItCounts);
  const conclusiveBeyond =
    candidates.length === 1 ? [entry] : stated.length > 0 ? [smallest(stated)] : candidates;
  return { identity, endpoint, entry, conclusiveBeyond, ...(banAfter === undefined ? {} : { banAfter }) };
}

const smallest = (entries: readonly RateEntry[]): RateEntry =>
  [...entries].sort((a, b) => a.limit - b.limit || a.windowSeconds - b.windowSeconds)[0] as RateEntry;

/** `{id}` or `:id` in a path segment: a template, not a literal path. */
const isTemplate = (path: string): boolean => /\{[^/}]+\}|\/:[^/]+/.test(path);

const matchers = new Map<string, RegExp>();

/** A matcher for a path template (`/users/{id}`, `/users/:id`): each parameter is one segment. */
export function templateMatcher(template: string): RegExp {
  let m = matchers.get(template);
  if (m === undefined) {
    m = compileTemplate(template);
    matchers.set(template, m);
  }
  return m;
}

function compileTemplate(template: string): RegExp {
  const parts = template.split(/(\{[^/}]+\}|:[A-Za-z_][A-Za-z0-9_]*)/);
  const body = parts
    .map((p, i) => (i % 2 === 1 ? '[^/]+' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}/?$`);
}

/**
 * Whether `entry` counts a request to `path` (relative to the base URL, no query; undefined: outside it) that carries a credential
 * (`authenticated`) or none. `anonymous`: requests without a credential (DRF's AnonRateThrottle counts the
 * clients it could not authenticate; a request whose credential the target refuses is answered 401 before any
 * throttle); `authenticated`: requests with one.
 */
export function entryApplies(entry: RateEntry, path: string | undefined, authenticated: boolean): boolean {
  if (entry.appliesTo === 'endpoint' && (path === undefined || path !== entry.onlyPath)) return false;
  if (entry.appliesTo === 'anonymous' && authenticated) return false;
  if (entry.appliesTo === 'authenticated' && !authenticated) return false;
  if (
    entry.routes !== undefined &&
    (path === undefined || !entry.routes.some((r) => r === path || templateMatcher(r).test(path)))
  )
    return false;
  return true;
}
