/**
 * Targets with the limits real services declare (#38; docs/performance.md "Politeness against real limiters"):
 * the real @fastify/rate-limit in front of the mock (bench/fastify-limiter.ts), alone with its ban, or as a
 * second limit beside the mock's own — NestJS-like (3 per second and 100 per minute per address), DRF-like
 * (anonymous per address beside per user), a strict login route beside a global limit. Each with the profile
 * that declares it exactly and the minimal one (limit and window only; the login route keeps its `routes`,
 * which say where the limit is). The least time each target allows for what a run sent is read from the
 * run's counters as the target counts.
 */
import type { RateLimitFile } from '../mock/access/rate-limit-settings.ts';
import type { RateLimitEntry } from '../specs/profile/types.ts';
import type { Politeness } from '../specs/run/politeness.ts';
import type { FastifyLimiterOptions } from './fastify-limiter.ts';
import { UNREACHABLE_RATE_LIMIT } from './setups.ts';
import { busiest } from './target-counters.ts';

export type ComposedName =
  | 'fastify-real'
  | 'fastify-ban'
  | 'nestjs'
  | 'drf'
  | 'login'
  | 'credential-60'
  | 'credential-parsed';
export const COMPOSED: readonly ComposedName[] = [
  'fastify-real',
  'fastify-ban',
  'nestjs',
  'drf',
  'login',
  'credential-60',
  'credential-parsed',
];

export interface ComposedTarget {
  readonly label: string;
  /** The mock's own limiter. */
  readonly mock: RateLimitFile;
  /** The real plugin in front of it (windows already scaled); absent: the mock alone. */
  readonly front?: Omit<FastifyLimiterOptions, 'upstream'>;
  /** One entry (as before lists existed) or a list. */
  readonly exact: RateLimitEntry | readonly RateLimitEntry[];
  readonly minimal: RateLimitEntry | readonly RateLimitEntry[];
  /** The least time (ms) the target's limits allow for what the run sent. */
  least(p: Politeness, seen: TargetCounts): number;
}

/** What the target itself counted (bench/target-counters.ts): the front's requests, the mock's per key. */
export interface TargetCounts {
  readonly front: number;
  /** The front's busiest key's requests (per address: all it counted). */
  readonly frontBusiest: number;
  readonly mock: ReadonlyMap<string, number>;
}

const LIMITED_ENDPOINT = { path: '/limited', method: 'GET', schemes: ['bearer', 'basic'] } as const;

export function composedTarget(name: ComposedName, scale: number): ComposedTarget {
  const w = (seconds: number) => seconds / scale;
  switch (name) {
    case 'fastify-real':
      return {
        label: `the real @fastify/rate-limit in front of the mock: 60 per ${w(10)} s per address, ban 3 (403 with Retry-After)`,
        mock: UNREACHABLE_RATE_LIMIT,
        front: { max: 60, timeWindowMs: w(10) * 1000, ban: 3 },
        exact: { limit: 60, windowSeconds: w(10), key: 'address', banAfter: 3 },
        minimal: { limit: 60, windowSeconds: w(10) },
        least: (p) => (p.requests / (60 / w(10))) * 1000,
      };
    case 'fastify-ban':
      // A ban met in the run's ordinary traffic: the profile declares more than the plugin lets through (another
      // client on the address, a limit lowered since), so the paced run is limited, goes past `ban` with the
      // requests in flight, and meets 403s — its own bans, and the plain user's refusals on the admin path.
      return {
        label: `the real @fastify/rate-limit in front of the mock: 40 per ${w(10)} s per address, ban 3 — the profile declaring 60 per ${w(10)} s (its exact key and ban): limited answers and bans met in ordinary traffic`,
        mock: UNREACHABLE_RATE_LIMIT,
        front: { max: 40, timeWindowMs: w(10) * 1000, ban: 3 },
        exact: { limit: 60, windowSeconds: w(10), key: 'address', banAfter: 3 },
        minimal: { limit: 60, windowSeconds: w(10) },
        least: (p) => (p.requests / (40 / w(10))) * 1000,
      };
    case 'nestjs':
      return {
        label: `NestJS-like: 3 per ${w(1)} s (the real plugin) and 100 per ${w(60)} s (the mock, a window from the first request), per address`,
        mock: {
          headers: 'x-ratelimit',
          groups: {
            default: {
              key: 'address',
              algorithm: 'client-window',
              limit: 100,
              windowSeconds: w(60),
              banSeconds: 0,
            },
          },
        },
        front: { max: 3, timeWindowMs: w(1) * 1000 },
        exact: [
          { name: 'short', limit: 3, windowSeconds: w(1), key: 'address' },
          { name: 'long', limit: 100, windowSeconds: w(60), key: 'address' },
        ],
        minimal: [
          { limit: 3, windowSeconds: w(1) },
          { limit: 100, windowSeconds: w(60) },
        ],
        least: (p) => (p.requests / Math.min(3 / w(1), 100 / w(60))) * 1000,
      };
    case 'drf':
      return {
        label: `DRF-like: anonymous 20 per ${w(10)} s per address (the real plugin, requests without a credential) and 60 per ${w(10)} s per user (the mock, per identity, moving window)`,
        mock: {
          headers: 'none',
          groups: {
            default: {
              key: 'identity',
              algorithm: 'moving-window',
              limit: 60,
              windowSeconds: w(10),
              banSeconds: 0,
              failedAttemptLimit: 1_000_000_000,
            },
          },
        },
        front: { max: 20, timeWindowMs: w(10) * 1000, anonymousOnly: true },
        exact: [
          { name: 'anon', limit: 20, windowSeconds: w(10), key: 'address', appliesTo: 'anonymous' },
          // DRF's UserRateThrottle keys an unauthenticated request by its address, as the mock's group does: it
          // counts every request, not the authenticated ones only.
          { name: 'user', limit: 60, windowSeconds: w(10), key: 'identity' },
        ],
        minimal: [
          { limit: 20, windowSeconds: w(10) },
          { limit: 60, windowSeconds: w(10) },
        ],
        // The front's one counter (requests without a credential) at 2/s; each of the mock's counters — every
        // identity's, and per address what it serves as anonymous — at 6/s.
        least: (_p, seen) => Math.max(seen.front / (20 / w(10)), busiest(seen.mock) / (60 / w(10))) * 1000,
      };
    case 'credential-60':
      return {
        label: `a gateway per credential: every Authorization value its own count (none: the address), 60 per ${w(10)} s, moving window (the mock alone)`,
        mock: {
          headers: 'none',
          groups: {
            default: {
              key: 'credential',
              algorithm: 'moving-window',
              limit: 60,
              windowSeconds: w(10),
              banSeconds: 0,
            },
          },
        },
        exact: { limit: 60, windowSeconds: w(10), key: 'credential' },
        minimal: { limit: 60, windowSeconds: w(10) },
        // The mock's busiest credential (or the requests without one, per address) at 6 per s.
        least: (_p, seen) => (busiest(seen.mock) / (60 / w(10))) * 1000,
      };
    case 'credential-parsed':
      return {
        label: `a gateway per credential as parsed (the real @fastify/rate-limit, its keyGenerator reading the token: \`bearer X\` and \`Bearer X\` one count; none: the address), 20 per ${w(10)} s`,
        mock: UNREACHABLE_RATE_LIMIT,
        front: { max: 20, timeWindowMs: w(10) * 1000, perParsedCredential: true },
        exact: { limit: 20, windowSeconds: w(10), key: 'credential' },
        minimal: { limit: 20, windowSeconds: w(10) },
        // The front's busiest key (a credential, or the requests without one) at 2 per s.
        least: (_p, seen) => (seen.frontBusiest / (20 / w(10))) * 1000,
      };
    case 'login':
      return {
        label: `a strict route beside a global limit: 60 per ${w(10)} s per address (the real plugin) and 10 per ${w(10)} s per address on GET /limited (the mock)`,
        mock: {
          headers: 'none',
          groups: {
            default: UNREACHABLE_RATE_LIMIT.groups?.default ?? {},
            login: {
              key: 'address',
              algorithm: 'moving-window',
              limit: 10,
              windowSeconds: w(10),
              banSeconds: 0,
            },
          },
          routes: { '/limited': 'login' },
        },
        front: { max: 60, timeWindowMs: w(10) * 1000 },
        exact: [
          { name: 'global', limit: 60, windowSeconds: w(10), key: 'address' },
          {
            name: 'login',
            limit: 10,
            windowSeconds: w(10),
            key: 'address',
            routes: ['/limited'],
            endpoint: LIMITED_ENDPOINT,
          },
        ],
        minimal: [
          { limit: 60, windowSeconds: w(10) },
          { limit: 10, windowSeconds: w(10), routes: ['/limited'], endpoint: LIMITED_ENDPOINT },
        ],
        // The login entry's counters (the second entry's, marked #2) count only GET /limited.
        least: (p) => {
          const strict = Math.max(
            0,
            ...(p.counters ?? []).filter((c) => c.counter.startsWith('#2 ')).map((c) => c.requests),
          );
          return Math.max(p.requests / (60 / w(10)), strict / (10 / w(10))) * 1000;
        },
      };
  }
}
