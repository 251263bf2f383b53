/**
 * The shared store: rate-limit counters, strikes, failed-attempt counters and bans in Redis, through
 * rate-limiter-flexible's RateLimiterRedis and the ioredis client — the client rate-limiter-flexible works
 * with by default (its Lua increment is registered once with `defineCommand` and sent as EVALSHA; its
 * readiness check reads ioredis's `status`), with a command timeout and reconnection built in.
 *
 * Keys: `<prefix>:rl:<group>:<limit>/<window>:<client key>:<window index>` (mock/access/rate-limit.ts), so two
 * deployments with different prefixes share one Redis without seeing each other's clients; `clear()` deletes
 * this prefix's keys only (SCAN + UNLINK).
 *
 * When Redis is unreachable or slow (no answer within `timeoutMs`): commands fail fast while the connection is
 * down (no offline queue, `rejectIfRedisNotReady`), and after a timeout the store counts as down until a PING
 * answers in time again. Meanwhile, per `onUnavailable`: `insurance` — each counter has an in-memory
 * insurance limiter (rate-limiter-flexible's `insuranceLimiter`), so this instance limits on its own; `refuse`
 * — the limiter's verdict is `unavailable`, answered 503 with Retry-After. Either way it is said once in the
 * log when it starts and once when sharing resumes, and shown in the control API's status.
 */

import type { Redis } from 'ioredis';
import type { RateLimiterRedis } from 'rate-limiter-flexible';
import { ioredisLibrary, rateLimiterFlexible } from './rate-limit-libraries.ts';
import type { LimiterStore, StoreStatus } from './rate-limit-store.ts';

export type OnUnavailable = 'insurance' | 'refuse';

export interface RedisStoreSettings {
  /** `redis://[user:password@]host:port[/db]`; the password never appears in logs or status. */
  readonly url: string;
  /** Namespace of this deployment's keys (no `:`). */
  readonly prefix: string;
  readonly onUnavailable: OnUnavailable;
  /** The longest a Redis command may take before it counts as failed. */
  readonly timeoutMs: number;
}

export interface RedisStore extends LimiterStore {
  /** Resolves once connected, or after `timeoutMs` (then the store starts as down). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** How often a down store checks whether Redis answers again (besides the client's own reconnection). */
const PROBE_MS = 500;

export function createRedisStore(settings: RedisStoreSettings, log: (line: string) => void): RedisStore {
  const where = redactUrl(settings.url);
  const { Redis } = ioredisLibrary();
  const { RateLimiterMemory } = rateLimiterFlexible();
  const SharedLimiter = sharedLimiterClass();
  const client = new Redis(settings.url, {
    enableOfflineQueue: false,
    // Commands issued in the same tick by concurrent requests go out as one pipeline (one write, one read).
    enableAutoPipelining: true,
    commandTimeout: settings.timeoutMs,
    connectTimeout: Math.max(settings.timeoutMs, 1000),
    maxRetriesPerRequest: 0,
    // Reconnect forever, at most every 2 s: sharing resumes when Redis comes back.
    retryStrategy: (times) => Math.min(times * 100, 2000),
  });
  let down: string | undefined;
  let probe: NodeJS.Timeout | undefined;
  let closed = false;

  const markDown = (reason: string): void => {
    if (down !== undefined || closed) return;
    down = reason;
    const instead =
      settings.onUnavailable === 'insurance'
        ? 'counting in this instance’s memory (insurance) until it answers again'
        : 'answering 503 with Retry-After until it answers again';
    log(`mock: Redis at ${where} ${reason}: rate limits are not shared; ${instead}`);
    probe = setInterval(() => {
      if (client.status !== 'ready') return;
      client.ping().then(markUp, () => undefined);
    }, PROBE_MS);
    probe.unref();
  };
  const markUp = (): void => {
    if (down === undefined || closed) return;
    down = undefined;
    clearInterval(probe);
    log(`mock: Redis at ${where} answers again: rate limits are shared`);
  };
  // ioredis reports connection errors as 'error' events: without a listener they would be printed raw.
  client.on('error', (error: Error) => markDown(`is unreachable (${error.message})`));
  client.on('close', () => markDown('closed the connection'));
  client.on('ready', markUp);

  const insurance = settings.onUnavailable === 'insurance';
  return {
    name: 'redis',
    create(options) {
      const limiter = new SharedLimiter({
        storeClient: client,
        ...options,
        keyPrefix: `${settings.prefix}:${options.keyPrefix}`,
        rejectIfRedisNotReady: true,
        insuranceLimiter: insurance ? new RateLimiterMemory(options) : undefined,
      });
      limiter.isDown = () => down !== undefined;
      limiter.onFailure = (error) => markDown(describeFailure(error, settings.timeoutMs));
      return limiter;
    },
    noteFailure: (error) => markDown(describeFailure(error, settings.timeoutMs)),
    // A plain GET (the limiter's own `get` is a MULTI of GET and PTTL): it goes out in the same pipeline as
    // the request's count. While Redis is down, the limiter answers (from its insurance limiter, or fails).
    async peek(limiter, key) {
      const viaLimiter = async () => (await limiter.get(key))?.consumedPoints ?? null;
      if (down !== undefined || client.status !== 'ready') return viaLimiter();
      try {
        const value = await client.get(limiter.getKey(key));
        return value === null ? null : Number.parseInt(value, 10);
      } catch (error) {
        markDown(describeFailure(error, settings.timeoutMs));
        return viaLimiter();
      }
    },
    async clear() {
      let cursor = '0';
      do {
        const [next, keys] = await client.scan(cursor, 'MATCH', `${settings.prefix}:*`, 'COUNT', 1000);
        if (keys.length > 0) await client.unlink(...keys);
        cursor = next;
      } while (cursor !== '0');
    },
    status(): StoreStatus {
      return {
        name: 'redis',
        shared: down === undefined,
        url: where,
        prefix: settings.prefix,
        ...(down === undefined ? {} : { fallback: settings.onUnavailable, reason: down }),
      };
    },
    ready() {
      if (client.status === 'ready') return Promise.resolve();
      return new Promise((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          client.off('ready', done);
          resolve();
        };
        const timer = setTimeout(done, Math.max(settings.timeoutMs, 1000));
        client.on('ready', done);
      });
    },
    async close() {
      closed = true;
      clearInterval(probe);
      client.disconnect();
    },
  };
}

/** RateLimiterRedis with the store's own readiness and failure reports (below). */
interface SharedLimiter extends RateLimiterRedis {
  isDown: () => boolean;
  onFailure: (error: unknown) => void;
}

type SharedLimiterClass = new (options: ConstructorParameters<typeof RateLimiterRedis>[0]) => SharedLimiter;

let sharedLimiter: SharedLimiterClass | undefined;

/**
 * RateLimiterRedis that also fails fast while the store is known to be down after a timeout (the library's
 * own readiness check only sees a closed connection), and reports failures so the store can say so. A class
 * made on first use: its base class comes with the library, loaded then (rate-limit-libraries.ts).
 */
function sharedLimiterClass(): SharedLimiterClass {
  if (sharedLimiter !== undefined) return sharedLimiter;
  const { RateLimiterRedis: Base } = rateLimiterFlexible();
  sharedLimiter = class extends Base implements SharedLimiter {
    isDown: () => boolean = () => false;
    onFailure: (error: unknown) => void = () => undefined;

    _isRedisReady(): boolean {
      const client = (this as unknown as { client: Redis }).client;
      return client.status === 'ready' && !this.isDown();
    }

    // rate-limiter-flexible calls `_handleError` for every failed operation, before asking the insurance limiter.
    _handleError(error: unknown, ...rest: unknown[]): void {
      if (error instanceof Error) this.onFailure(error);
      (Base.prototype as unknown as { _handleError: (...a: unknown[]) => void })._handleError.call(
        this,
        error,
        ...rest,
      );
    }
  };
  return sharedLimiter;
}

function describeFailure(error: unknown, timeoutMs: number): string {
  const message = error instanceof Error ? error.message : String(error);
  return /timed? ?out/i.test(message) ? `did not answer within ${timeoutMs} ms` : `failed (${message})`;
}

/** The URL without its password (a Redis ACL password is a secret: never logged, never shown). */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return parsed.toString();
    const user = parsed.username === '' ? '' : decodeURIComponent(parsed.username);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace('//', `//${user}:[redacted]@`);
  } catch {
    return '(unparsable Redis URL)';
  }
}
