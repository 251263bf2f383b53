/**
 * The access feature's builder: block lists, the client address and the rate limiter, from their settings
 * (docs/design.md "Order of checks", steps 3 and 5). What it returns is what the block-lists, credentials
 * and rate-limit stages need, and what the control API changes at run time (the limiter). Bad settings → a
 * one-line ConfigError naming the field.
 */

import type { Router } from '../routing/router.ts';
import { asConfigError } from '../util/config-error.ts';
import { type CidrList, compileCidrList } from './cidr.ts';
import { type ClientAddress, createClientAddress } from './client-address.ts';
import { createRateLimiter, type LimiterStore, type RateLimiter } from './rate-limit.ts';
import { createRedisStore, type RedisStore } from './rate-limit-redis.ts';
import type { RateLimitSettings } from './rate-limit-settings.ts';
import type { StoreSettings } from './rate-limit-store.ts';
import type { AccessSettings } from './settings.ts';

export interface AccessOptions {
  readonly access: AccessSettings;
  readonly rateLimit: RateLimitSettings;
  /** Where the rate-limit counters live, given as an object (tests, programmatic use); else `storeSettings`. */
  readonly store: LimiterStore | undefined;
  /** The configured store: memory, or a Redis shared by several instances (docs/mock.md). */
  readonly storeSettings: StoreSettings;
  /** The control API is on, so limits may be switched on at run time: the limiting stages stay. */
  readonly switchable: boolean;
}

export interface Access {
  readonly address: ClientAddress;
  readonly limiter: RateLimiter;
  /** Rate limiting may apply: configured, or switchable at run time. */
  readonly limiting: boolean;
  /** The block-lists stage has something to check (a list, a closed route, or bans to enforce). */
  readonly blocking: boolean;
  readonly blockedIps: CidrList | undefined;
  /** Upper-case ISO 3166 codes; undefined when none is blocked. */
  readonly blockedCountries: ReadonlySet<string> | undefined;
  /** Lower-case header name carrying the client's country. */
  readonly countryHeader: string;
  /** Resolves when a shared store is connected (or its bounded wait is over). */
  readonly ready: Promise<void>;
  /** Closes what the access feature opened (the Redis connection). */
  close(): Promise<void>;
}

export function buildAccess(options: AccessOptions, router: Router): Access {
  const { access: settings, rateLimit, store, storeSettings, switchable } = options;
  const lists = asConfigError('config.access', () => ({
    trusted: compileCidrList(settings.trustedProxies, 'trustedProxies'),
    blocked: compileCidrList(settings.blockedIps, 'blockedIps'),
  }));
  const address = asConfigError('config.access', () =>
    createClientAddress(lists.trusted, settings.proxyHeader),
  );
  const redis = store === undefined ? openRedis(storeSettings) : undefined;
  const limiter = asConfigError('config', () => createRateLimiter(rateLimit, router, store ?? redis));
  const limiting = rateLimit.enabled || switchable;
  const blockedCountries =
    settings.blockedCountries.length === 0
      ? undefined
      : new Set(settings.blockedCountries.map((c) => c.toUpperCase()));
  const blockedIps = lists.blocked.source.length > 0 ? lists.blocked : undefined;
  const anyClosed = router.routes.some((route) => [...route.rules.values()].some((rule) => rule.closed));
  return {
    address,
    limiter,
    limiting,
    blocking: anyClosed || blockedIps !== undefined || blockedCountries !== undefined || limiting,
    blockedIps,
    blockedCountries,
    countryHeader: settings.countryHeader.toLowerCase(),
    ready: redis?.ready() ?? Promise.resolve(),
    close: async () => redis?.close(),
  };
}

/** The Redis store of `store.type: "redis"`; its outages are said on stderr, once each way. */
function openRedis(settings: StoreSettings): RedisStore | undefined {
  const { type, redisUrl, prefix, onUnavailable, timeoutMs } = settings;
  if (type !== 'redis' || redisUrl === undefined) return undefined;
  return createRedisStore({ url: redisUrl, prefix, onUnavailable, timeoutMs }, (line) =>
    process.stderr.write(`${line}\n`),
  );
}
