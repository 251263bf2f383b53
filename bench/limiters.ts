/**
 * The real limiters the suite is checked against (#28; docs/mock.md "Rate limiting: as real limiters count"),
 * in ONE place for the politeness benchmark and the project's tests: the mock configured as each
 * (fixtures/limiters/<name>.mock.json, 60 requests per 10 s), optionally compressed in time (a window `scale`
 * times shorter, same shape), and the two profiles a user would write for it — `exact` (limit, window, key,
 * burst, ban as the limiter does it) and `minimal` (limit and window only).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RateLimitFile, RateLimitGroup } from '../mock/access/rate-limit-settings.ts';
import { FIXTURES_DIR } from '../mock/config.ts';
import type { Profile, RateLimitEntry } from '../specs/profile/types.ts';
import { PROFILE, PROFILE_PATH } from './setups.ts';

export type LimiterName = 'nginx' | 'fastify' | 'slowapi' | 'express' | 'credential';
export const LIMITERS: readonly LimiterName[] = ['nginx', 'fastify', 'slowapi', 'express', 'credential'];
/**
 * What a politeness run's profile declares: the limiter exactly, limit and window only, or (`none`) no `rateLimit`
 * at all — what most users point at a deployment first; the run learns the limit.
 */
export const PROFILE_KINDS = ['exact', 'minimal', 'none'] as const;
export type ProfileKind = (typeof PROFILE_KINDS)[number];
/** The kinds run unless asked for: issue #38's targets are for the two declarations. */
export const DEFAULT_PROFILE_KINDS: readonly ProfileKind[] = ['exact', 'minimal'];

/** What each limiter is, in a few words (the benchmark's table). */
export const LIMITER_LABELS: Readonly<Record<LimiterName, string>> = {
  nginx: 'nginx limit_req: per address, leaky bucket, burst 10 nodelay, 429, no header',
  fastify:
    '@fastify/rate-limit: per address, window from the first request, X-RateLimit-*, ban → 403 after 3',
  slowapi: 'slowapi: per address and route, moving window, no header',
  express: 'express-rate-limit: per address, window from the first request, RateLimit draft 7',
  credential:
    'a gateway per credential: every Authorization value its own count (none: the address), 20 per 10 s, moving window, Retry-After',
};

/** The mock's rate-limit settings for `name`, its windows `scale` times shorter. */
export function limiterSettings(name: LimiterName, scale = 1): RateLimitFile {
  const file = JSON.parse(readFileSync(join(FIXTURES_DIR, 'limiters', `${name}.mock.json`), 'utf8')) as {
    rateLimit: RateLimitFile & { groups: Record<string, Partial<RateLimitGroup>> };
  };
  const groups = Object.fromEntries(
    Object.entries(file.rateLimit.groups).map(([g, group]) => [
      g,
      { ...group, windowSeconds: (group.windowSeconds ?? 10) / scale },
    ]),
  );
  return { ...file.rateLimit, groups };
}

/** The limiter's limit: requests per window (s), as the profiles declare it. */
export function limiterLimit(name: LimiterName, scale = 1): { limit: number; windowSeconds: number } {
  const group = limiterSettings(name, scale).groups?.default as Partial<RateLimitGroup>;
  return { limit: group.limit ?? 60, windowSeconds: group.windowSeconds ?? 10 };
}

/** What the exact profile adds to limit and window: the key, burst and ban as the limiter does them. */
const EXACT: Readonly<Record<LimiterName, Record<string, unknown>>> = {
  nginx: { key: 'address', burst: 10 },
  fastify: { key: 'address', banAfter: 3 },
  slowapi: { key: 'endpoint' },
  express: { key: 'address' },
  credential: { key: 'credential' },
};

/**
 * The bundled mock's profile (its identities, JWT material, endpoints) with the limiter's declaration — and the
 * default fuzz budget, as a user's profile has, unless `fuzzCases` says otherwise. The rate-limit rules' burst
 * goes to the protected endpoint (every limiter here counts it).
 */
export function limiterProfile(
  name: LimiterName,
  kind: ProfileKind,
  scale = 1,
  options: { fuzzCases?: number; maxSeconds?: number } = {},
): Profile {
  return profileDeclaring(
    kind === 'none'
      ? undefined
      : ({ ...limiterLimit(name, scale), ...(kind === 'exact' ? EXACT[name] : {}) } as RateLimitEntry),
    options,
  );
}

/** The bundled mock's profile with `rateLimit` (one entry or a list; undefined: none) and the default fuzz budget. */
export function profileDeclaring(
  rateLimit: RateLimitEntry | readonly RateLimitEntry[] | undefined,
  options: { fuzzCases?: number; maxSeconds?: number } = {},
): Profile {
  const { rateLimit: _bundled, budget, ...rest } = PROFILE;
  const { fuzzCases: _cases, ...budgetRest } = budget ?? {};
  return {
    ...rest,
    $schema: join(PROFILE_PATH, '..', 'schemas', 'profile.schema.json'),
    ...(rateLimit === undefined ? {} : { rateLimit }),
    budget: {
      ...budgetRest,
      ...(options.fuzzCases === undefined ? {} : { fuzzCases: options.fuzzCases }),
      ...(options.maxSeconds === undefined ? {} : { maxSeconds: options.maxSeconds }),
    },
  } as Profile;
}

/**
 * The least time the limit allows for what the run sent (ms): per address, every request through one counter
 * at limit ÷ window; per route (slowapi), the busiest route's requests through its own; per credential, the
 * busiest credential's. `busiestCounter`: that busiest counter's requests (route, or credential), as the target
 * counted them.
 */
export function leastTimeMs(
  name: LimiterName,
  scale: number,
  requests: number,
  busiestCounter: number,
): number {
  const { limit, windowSeconds } = limiterLimit(name, scale);
  const perSecond = limit / windowSeconds;
  const counted = name === 'slowapi' || name === 'credential' ? busiestCounter : requests;
  return (counted / perSecond) * 1000;
}

/** A skip reason that says the run's time, not the target, stopped a rule (the clock is never a verdict). */
export const SKIPPED_FOR_TIME = /run budget|time ran out|ran out of time|budget\.max|timed out|needs ≈/i;
