/**
 * Stage 5, rate limit (429, then 403 ban), after credentials (docs/design.md "Order of checks"). The client key is
 * the verified identity (`id:<id>`) or, on a public route, the client address (`ip:<address>`). A group keyed
 * by `address` is counted earlier, by the access stage (before credentials, as a gateway in front would), and
 * skipped here. Every answer of a limited route carries the rate-limit header fields; refusals carry
 * Retry-After too.
 *
 * `countFailedAttempts` wraps the credentials stage: a 400 or 401 there counts against the client address
 * (the group's `failedAttemptLimit`), so guessing credentials is limited too, and the attempt that goes over
 * is answered 429. (Once an address is known to be over it, the access stage refuses the address before its
 * credentials are even checked.)
 */

import type { OutgoingHttpHeaders } from 'node:http';
import type { ClientAddress } from '../access/client-address.ts';
import { addressKey, identityKey } from '../access/client-keys.ts';
import type { Group, RateLimiter, Verdict } from '../access/rate-limit.ts';
import { rateLimitHeaders, seconds } from '../access/rate-limit-headers.ts';
import { problem } from '../http/problem.ts';
import type { Reply } from '../http/reply.ts';
import { type Exchange, missing, type Stage, type StageResult } from './exchange.ts';
import { clientOf, note } from './notes.ts';

export function rateLimitStage(limiter: RateLimiter, address: ClientAddress): Stage {
  return (exchange) => {
    if (!limiter.settings.enabled) return undefined;
    const group = limiter.groupFor((exchange.match ?? missing('match')).route, exchange.method);
    // Counted by the access stage, before credentials.
    if (group === undefined || group.key !== 'identity') return undefined;
    const key =
      exchange.identity === undefined
        ? addressKey(clientOf(exchange, address))
        : identityKey(exchange.identity.id);
    exchange.clientKey = key;
    exchange.limitKey = key;
    return answerWhenCounted(limiter, exchange, group, limiter.hit(group, key, exchange.now));
  };
}

export function countFailedAttempts(credentials: Stage, limiter: RateLimiter, address: ClientAddress): Stage {
  const failed = (exchange: Exchange, reply: Reply): StageResult | Promise<StageResult> => {
    if ((reply.status !== 400 && reply.status !== 401) || !limiter.settings.enabled) return reply;
    const group = limiter.groupFor((exchange.match ?? missing('match')).route, exchange.method);
    if (group === undefined) return reply;
    const key = addressKey(clientOf(exchange, address));
    exchange.clientKey = key;
    const { failures } = group;
    // The attempt that goes over the limit is answered 429 (or 403 banned) instead of its 400/401.
    return answerWhenCounted(limiter, exchange, failures, limiter.hit(failures, key, exchange.now), reply);
  };
  // Async functions rather than `.then` callbacks: no closure made per request.
  const afterCredentials = async (
    exchange: Exchange,
    pending: Promise<StageResult>,
  ): Promise<StageResult> => {
    const reply = await pending;
    return reply === undefined ? undefined : failed(exchange, reply);
  };
  return (exchange) => {
    const out = credentials(exchange);
    if (out === undefined) return undefined;
    if (out instanceof Promise) return afterCredentials(exchange, out);
    return failed(exchange, out);
  };
}

/**
 * The verdict's answer (`otherwise` when allowed), now when it was counted in this process, later when a
 * shared store counts it.
 */
export function answerWhenCounted(
  limiter: RateLimiter,
  exchange: Exchange,
  group: Group,
  verdict: Verdict | Promise<Verdict>,
  otherwise?: Reply,
): StageResult | Promise<StageResult> {
  return verdict instanceof Promise
    ? answerLater(limiter, exchange, group, verdict, otherwise)
    : (answer(limiter, exchange, group, verdict) ?? otherwise);
}

// An async function rather than a `.then` callback: no closure made per request.
async function answerLater(
  limiter: RateLimiter,
  exchange: Exchange,
  group: Group,
  pending: Promise<Verdict>,
  otherwise: Reply | undefined,
): Promise<StageResult> {
  return answer(limiter, exchange, group, await pending) ?? otherwise;
}

/**
 * Allowed: the headers go on whatever answer follows, and the request goes on (undefined). Otherwise the
 * refusal: 429 over the limit (or the burst limit), 403 while banned, 503 when the shared store is down and
 * the configuration says to refuse.
 */
export function answer(
  limiter: RateLimiter,
  exchange: Exchange,
  group: Group,
  verdict: Verdict,
): Reply | undefined {
  const headers = rateLimitHeaders(limiter.settings.headers, group, verdict, exchange.clientKey);
  if (verdict.kind === 'allowed') {
    if (headers !== undefined) exchange.extraHeaders = headers;
    return undefined;
  }
  return refusal(exchange, group, verdict, headers);
}

function refusal(
  exchange: Exchange,
  group: Group,
  verdict: Exclude<Verdict, { kind: 'allowed' }>,
  headers: OutgoingHttpHeaders | undefined,
): Reply {
  if (verdict.kind === 'unavailable') {
    const wait = Math.max(1, seconds(verdict.retryAfterMs));
    const detail = `The shared rate-limit store cannot be reached; retry after ${wait} s.`;
    note(exchange, 'limits_unavailable', detail);
    // RFC 9110 §15.6.4: 503, "the server is currently unable to handle the request due to a temporary overload".
    return problem('limits-unavailable', detail, headers, { code: 'limits_unavailable' });
  }
  const policy = `${group.limit} ${group.counts} per ${group.windowSeconds} s`;
  if (verdict.kind === 'limited') {
    const wait = Math.max(1, seconds(verdict.resetMs));
    const by = verdict.by;
    const limit = by === group ? policy : `${by.limit} ${by.counts} per ${by.windowSeconds} s`;
    const detail = `Rate limit exceeded (${limit}); retry after ${wait} s.`;
    note(exchange, 'rate_limited', detail);
    // RFC 6585 §4: 429 Too Many Requests, "MAY include a Retry-After header"; or 503, as nginx's limit_req
    // answers by default (limit_req_status).
    const kind = group.status === 503 ? 'rate-limited-unavailable' : 'rate-limited';
    return problem(kind, detail, headers, { code: 'rate_limited' });
  }
  const wait = Math.max(1, seconds(verdict.retryAfterMs));
  const until = new Date(exchange.now + verdict.retryAfterMs).toISOString();
  const detail =
    `This client kept sending while rate limited (${policy}, then ${group.banAfter} more) and is banned ` +
    `until ${until}; retry after ${wait} s. Authenticating again does not change this.`;
  note(exchange, 'banned', detail);
  // Seed §8: "A request blocked by rate limiting may also be answered with 403."
  return problem('client-banned', detail, headers, { code: 'banned' });
}
