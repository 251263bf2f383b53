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
 */
export type RateLimitKey = 'identity' | 'address';

/** One limit: `limit` requests per fixed window of `windowSeconds`, per client key. */
export interface RateLimitGroup {
  /** Requests per window per client key (see `key`). */
  readonly limit: number;
  /** Window length; fractions allowed (millisecond precision) so tests can use short windows. */
  readonly windowSeconds: number;
  /** Default `identity`. */
  readonly key?: RateLimitKey;
  /**
   * A burst limit on top of `limit`: at most `burstLimit` requests per `burstWindowSeconds` (a second fixed
   * window, shorter, that divides `windowSeconds`), e.g. 30 per 1 s with a burst of 10 per 0.25 s.
   */
  readonly burstLimit?: number;
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
}

/**
 * `ietf`: `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers-10, structured fields);
 * `legacy`: `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (drafts up to -06, still common);
 * `none`: only `Retry-After` on 429 and 403-ban answers.
 */
export type RateLimitHeaderStyle = 'ietf' | 'legacy' | 'none';

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

/**
 * 3000 requests per 10 s per client key on every route but the quota route, then 200 more answered 429 before
 * a 30 s ban; 5000 failed credential attempts per 10 s per address. A default conformance run sends ≈4,600
 * requests, fuzzing included, most of them failed attempts from 127.0.0.1 and valid-credential variants of two
 * identities: 3000 keeps each counter clear of what the suite itself sends, whatever its speed, so a default
 * run meets no limit it did not provoke (docs/mock.md "Rate limiting").
 */
export const DEFAULT_GROUP: RateLimitGroup = {
  limit: 3000,
  windowSeconds: 10,
  failedAttemptLimit: 5000,
  banAfter: 200,
  banSeconds: 30,
};

/**
 * The quota of `GET /limited` (fixtures/policy.json): 60 requests per 2 s per identity, as APIs give a costly
 * route a quota of its own. The suite's `ratelimit.*` rules provoke it with a throw-away identity (carol):
 * a burst is conclusive once one 2 s span holds more than 120 answers, which any client sending 60 requests
 * a second reaches, and the recovery wait (Retry-After) is at most 2 s. banAfter stays above the most limited
 * answers such a burst can meet (it sends at most 4 × 60 + 2).
 */
export const QUOTA_GROUP: RateLimitGroup = {
  limit: 60,
  windowSeconds: 2,
  failedAttemptLimit: 5000,
  banAfter: 200,
  banSeconds: 30,
};

/**
 * Route → group mappings of the default settings. One naming a route the policy lacks (a policy of one's
 * own) is left out rather than refused, so the defaults fit any policy.
 */
export const DEFAULT_ROUTE_GROUPS: Readonly<Record<string, string>> = { 'GET /limited': 'quota' };

export const DEFAULT_RATE_LIMIT: RateLimitSettings = {
  enabled: true,
  headers: 'ietf',
  maxKeys: 10_000,
  groups: { default: DEFAULT_GROUP, quota: QUOTA_GROUP },
  routes: DEFAULT_ROUTE_GROUPS,
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
