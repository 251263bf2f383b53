/**
 * Rate-limit settings: what the config file's `rateLimit` section, the CLI flags and the control API's
 * `PUT /__gatecheck/limits` set. Validated by fixtures/schemas/mock-config.schema.json (`rateLimit`); the
 * cross-checks a schema cannot make (route keys name policy routes) happen when the limiter is built.
 */

/**
 * What a group counts against. `identity`: the verified identity, or the client address on a public route,
 * counted after credentials (a refused credential is counted apart, see `failedAttemptLimit`). `address`: the
 * client address alone, for every request on the group's routes whatever the identity or the outcome, counted
 * before credentials — as a gateway in front of the API does (nginx `limit_req_zone $binary_remote_addr`).
 * `route`: the client address and the route together, counted before credentials — each route its own count,
 * as slowapi's `default_limits` (per `key_func` address and per endpoint) does. `credential`: the
 * Authorization value, whatever it is and whether or not it verifies, counted before credentials — an API
 * gateway's "per API key" quota; a request without one is counted per address.
 */
export type RateLimitKey = 'identity' | 'address' | 'route' | 'credential';

/** Who a count is kept for, in messages: `requests per address`, `… per address and route`, `… per client`. */
export const KEY_WORDS: Readonly<Record<RateLimitKey, string>> = {
  address: 'address',
  route: 'address and route',
  credential: 'credential',
  identity: 'client',
};

/**
 * How a group counts (docs/mock.md "Rate limiting: as real limiters count"):
 * `fixed-window` (default): windows aligned to the mock's clock, `floor(now / window)`;
 * `client-window`: a window that starts at the client's first request after the last one ended, as
 *   @fastify/rate-limit's and express-rate-limit's memory stores count;
 * `moving-window`: at most `limit` requests in any span of one window (a log of the last `limit` times), as
 *   the `limits` library's moving window (slowapi) counts; a refused request is not logged;
 * `leaky-bucket`: nginx `limit_req` — `limit / windowSeconds` requests per second, with `burstLimit` more held
 *   (served at once with `nodelay`, else delayed until the bucket has leaked them); a refused request is not
 *   counted.
 */
export type RateLimitAlgorithm = 'fixed-window' | 'client-window' | 'moving-window' | 'leaky-bucket';

/** One limit: `limit` requests per window of `windowSeconds`, per client key. */
export interface RateLimitGroup {
  /** Requests per window per client key (see `key`). */
  readonly limit: number;
  /** Window length; fractions allowed (millisecond precision) so tests can use short windows. */
  readonly windowSeconds: number;
  /** Default `identity`. */
  readonly key?: RateLimitKey;
  /** Default `fixed-window`. Only `fixed-window` can be counted in a shared store (Redis). */
  readonly algorithm?: RateLimitAlgorithm;
  /**
   * A burst limit on top of `limit`: at most `burstLimit` requests per `burstWindowSeconds` (a second fixed
   * window, shorter, that divides `windowSeconds`), e.g. 30 per 1 s with a burst of 10 per 0.25 s. For a
   * `leaky-bucket`: nginx's `burst=`, the requests the bucket holds beyond the rate (default 0).
   */
  readonly burstLimit?: number;
  /** `leaky-bucket` only: serve the burst at once (nginx `nodelay`, the default) or delay it. */
  readonly nodelay?: boolean;
  /** The status of a limited answer: 429 (default), or 503 as nginx's `limit_req_status` is by default. */
  readonly status?: 429 | 503;
  /** Default 1 s; must divide `windowSeconds` so a window's end is also a burst window's end. */
  readonly burstWindowSeconds?: number;
  /**
   * Failed credential attempts (answered 400 or 401) per window per client address, counted apart from
   * `limit`: beyond it the address gets 429 on the group's protected routes before its credentials are even
   * checked, so guessing is limited, while a client that mistypes a password keeps its own quota.
   */
  readonly failedAttemptLimit: number;
  /**
   * Requests a client may send while limited (each answered 429, by the limit or by the burst limit) within
   * one window before it is banned; the next one is answered 403.
   */
  readonly banAfter: number;
  /** How long a ban lasts (fractions allowed); 0 disables bans. A ban never ends before the window that caused it. */
  readonly banSeconds: number;
  /**
   * Other groups, of the same key, that count the same requests after this one: a request is limited by the
   * first that refuses it (several limits on one route: NestJS's list, a login route beside the global limit).
   * In this process only (not with a shared store).
   */
  readonly alongside?: readonly string[];
}

/**
 * `ietf`: `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers-10, structured fields);
 * `legacy`: `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (drafts up to -06, still common);
 * `x-ratelimit`: `X-RateLimit-Limit`, `-Remaining`, `-Reset` on every answer (@fastify/rate-limit's default);
 * `draft-7`: `RateLimit-Policy: 60;w=10` and `RateLimit: limit=60, remaining=59, reset=7` (express-rate-limit's
 *   `standardHeaders: 'draft-7'`); `draft-8`: `RateLimit-Policy: "60-in-10sec"; q=60; w=10; pk=:…:` and
 *   `RateLimit: "60-in-10sec"; r=59; t=7` (its `'draft-8'`);
 * each of those with `Retry-After` on 429 and 403-ban answers; `none`: only `Retry-After` there;
 * `bare`: no field at all, not even `Retry-After` (nginx `limit_req`; slowapi without `headers_enabled`).
 */
export type RateLimitHeaderStyle =
  | 'ietf'
  | 'legacy'
  | 'x-ratelimit'
  | 'draft-7'
  | 'draft-8'
  | 'none'
  | 'bare';

export interface RateLimitSettings {
  readonly enabled: boolean;
  readonly headers: RateLimitHeaderStyle;
  /**
   * Most client keys tracked at once, over all groups. At the cap the least recently seen client is forgotten
   * (its count starts again from zero if it comes back); a client that keeps sending stays tracked.
   */
  readonly maxKeys: number;
  /** Named limits. `default` applies to every route `routes` does not name (no `default`: those are unlimited). */
  readonly groups: Readonly<Record<string, RateLimitGroup>>;
  /**
   * Route → group: keys are a policy path pattern (`/users/:id`) or a method and a pattern (`POST /users`;
   * HEAD follows GET); the value is a group name, or `none` for a route that is not limited.
   */
  readonly routes: Readonly<Record<string, string>>;
}

/** The value of `routes` that leaves a route unlimited; not a valid group name. */
export const NO_GROUP = 'none';

/** A `routes` key: `POST /users` → { method: 'POST', pattern: '/users' }; `/users` → { pattern: '/users' }. */
export function splitRouteKey(key: string): { method?: string; pattern: string } {
  const space = key.indexOf(' ');
  return space === -1
    ? { pattern: key }
    : { method: key.slice(0, space), pattern: key.slice(space + 1).trim() };
}

/**
 * Every route but /limited: 3,000 requests per 10 s per client key, then 200 more answered 429 before a 30 s
 * ban; 20,000 failed credential attempts per 10 s per address. A limit the suite's own traffic fits (the
 * bundled profile declares the short limit of /limited, below, and the suite paces only that route): in a
 * default conformance run the busiest identity (bob: legal respellings of his credentials, tokens minted for
 * him) sends ≈500 requests, the busiest address ≈400 on the public route, and ≈2,100 failed attempts
 * (fuzzing the Authorization header) — every one of them in well under 10 s on 2 cores.
 */
export const DEFAULT_GROUP: RateLimitGroup = {
  limit: 3000,
  windowSeconds: 10,
  failedAttemptLimit: 20_000,
  banAfter: 200,
  banSeconds: 30,
};

/**
 * GET /limited: 20 requests per 1 s per client key, a ban (30 s) after 20 more — the limit the bundled profile
 * declares (`rateLimit.appliesTo: endpoint`) and the suite's `ratelimit.*` rules probe with the throw-away
 * identity carol. Their burst is conclusive once one window-length span holds more than 2 × limit requests
 * (40 within 1 s: any client on a busy machine gets there), and 1 s bounds Retry-After and so their
 * recovery wait. No other request of the suite goes there, so none is limited by it.
 */
export const LIMITED_GROUP: RateLimitGroup = {
  limit: 20,
  windowSeconds: 1,
  failedAttemptLimit: 20_000,
  banAfter: 20,
  banSeconds: 30,
};

/**
 * The bundled policy's /limited route in its group. A policy without that route (a configuration's own) leaves
 * this entry unused rather than refused (mock/access/rate-limit-groups.ts).
 */
export const BUNDLED_ROUTES: Readonly<Record<string, string>> = { '/limited': 'limited' };

export const DEFAULT_RATE_LIMIT: RateLimitSettings = {
  enabled: true,
  headers: 'ietf',
  maxKeys: 10_000,
  groups: { default: DEFAULT_GROUP, limited: LIMITED_GROUP },
  routes: BUNDLED_ROUTES,
};

/** The file form: every key optional; a group given in part is completed from the same group, else the defaults. */
export interface RateLimitFile {
  readonly enabled?: boolean;
  readonly headers?: RateLimitHeaderStyle;
  readonly maxKeys?: number;
  readonly groups?: Readonly<Record<string, Partial<RateLimitGroup>>>;
  readonly routes?: Readonly<Record<string, string>>;
}

export function mergeRateLimit(base: RateLimitSettings, file: RateLimitFile | undefined): RateLimitSettings {
  if (file === undefined) return base;
  const groups: Record<string, RateLimitGroup> = { ...base.groups };
  for (const [name, group] of Object.entries(file.groups ?? {})) {
    groups[name] = { ...(base.groups[name] ?? DEFAULT_GROUP), ...group };
  }
  return {
    enabled: file.enabled ?? base.enabled,
    headers: file.headers ?? base.headers,
    maxKeys: file.maxKeys ?? base.maxKeys,
    groups,
    routes: { ...base.routes, ...file.routes },
  };
}
