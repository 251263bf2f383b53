/**
 * Which answers are the target rate limiting the suite, rather than a verdict on the request, and how long
 * they ask the client to wait (docs/design.md "A polite client").
 *
 * Seed §8: over the limit → 429; "a request blocked by rate limiting may also be answered with 403".
 * RFC 6585 §4: 429 "MAY include a Retry-After header". A 403 is a rate-limit ban when it carries Retry-After
 * (RFC 9110 §10.2.3: how long "the user agent ought to wait"), or when the profile declares that the target
 * bans and the run met a limited answer from it shortly before (a ban outlives the 429s that earned it).
 * A 503 (RFC 9110 §15.6.4: "currently unable to handle the request due to a temporary overload") is one when
 * it says when to come back (Retry-After), or when the profile declares that the limiter answers 503 (nginx's
 * `limit_req_status` is 503 unless set): it says nothing about the request, so it is waited out, never judged.
 */
import { parseRetryAfter } from '../lib/retry-after.ts';

/**
 * A 403 without Retry-After while a declared ban may be in force: a ban's only if a control request (one that
 * must be served now) is refused too (specs/run/scheduler.ts); the interface gives 403 to a role's refusal as
 * well (seed §7 causes 1 and 4), so the status alone cannot say.
 */
export const DURING_BAN = '403 during a declared ban';

/** The parts of an answer this module reads: status and lower-case header fields. */
export interface AnswerHead {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
}

export interface LimitSignal {
  readonly kind: 'limited' | 'banned';
  /** What the answer asks for, in ms; undefined when it names no delay (the scheduler backs off then). */
  readonly waitMs: number | undefined;
  /** Why the answer counts as limiting, for reports: `429`, `403 with Retry-After`, `403 during a declared ban`. */
  readonly reason: string;
}

export interface BanContext {
  /** The profile says the target bans after limiting (`rateLimit.ban`). */
  readonly banDeclared: boolean;
  /** The declared ban length, used when a ban names no delay. */
  readonly banSeconds?: number;
  /** A limited answer was met within the declared ban length before this one. */
  readonly limitedRecently: boolean;
  /** The profile declares the limiter answers 503 (`rateLimit.status`). */
  readonly limiterStatus?: 429 | 503;
}

/**
 * `expected`: the statuses the request's check expects. A 403 it expects (access.403.*, authz.403.*) is a
 * ban only when it carries Retry-After: otherwise it is the verdict the check asked for, not a limit to wait
 * out and re-send into.
 */
export function limitedAnswer(
  head: AnswerHead,
  ban: BanContext,
  now = Date.now(),
  expected: readonly number[] = [],
): LimitSignal | undefined {
  if (head.status === 429) return { kind: 'limited', waitMs: resetHintMs(head.headers, now), reason: '429' };
  if (head.status === 503) {
    if (head.headers['retry-after'] !== undefined)
      return { kind: 'limited', waitMs: resetHintMs(head.headers, now), reason: '503 with Retry-After' };
    if (ban.limiterStatus === 503)
      return {
        kind: 'limited',
        waitMs: resetHintMs(head.headers, now),
        reason: '503 (the declared limiter status)',
      };
    return undefined;
  }
  if (head.status !== 403) return undefined;
  const retryAfter = head.headers['retry-after'];
  if (retryAfter !== undefined) {
    const waitMs = resetHintMs(head.headers, now);
    return { kind: 'banned', waitMs, reason: '403 with Retry-After' };
  }
  if (ban.banDeclared && ban.limitedRecently && !expected.includes(403)) {
    const waitMs = ban.banSeconds === undefined ? undefined : ban.banSeconds * 1000;
    return { kind: 'banned', waitMs, reason: DURING_BAN };
  }
  return undefined;
}

/**
 * How long the answer asks the client to wait, in ms: Retry-After (RFC 9110 §10.2.3), else the `t` parameter
 * of RateLimit (draft-ietf-httpapi-ratelimit-headers-10 §3.1; `reset` in draft 7), else RateLimit-Reset / X-RateLimit-Reset
 * (earlier drafts and common gateways: delta seconds, or epoch seconds when the value is that large).
 */
export function resetHintMs(headers: Readonly<Record<string, string>>, now = Date.now()): number | undefined {
  const retryAfter = headers['retry-after'];
  if (retryAfter !== undefined) {
    const seconds = parseRetryAfter(retryAfter, now);
    if (seconds !== undefined) return seconds * 1000;
  }
  const ietf = headers.ratelimit;
  if (ietf !== undefined) {
    // RateLimit: "default";r=0;t=5 — several policies may be listed; the longest reset is the safe one. Draft 7
    // wrote it as one dictionary: RateLimit: limit=60, remaining=0, reset=5.
    let longest: number | undefined;
    for (const m of ietf.matchAll(/(?:;\s*t|\breset)=(\d+)/g)) longest = Math.max(longest ?? 0, Number(m[1]));
    if (longest !== undefined) return longest * 1000;
  }
  for (const name of ['ratelimit-reset', 'x-ratelimit-reset']) {
    const value = headers[name]?.trim();
    if (value === undefined || !/^\d+(\.\d+)?$/.test(value)) continue;
    const n = Number(value);
    // Epoch seconds (GitHub's X-RateLimit-Reset) are far larger than any sensible delay.
    return n > 1e9 ? Math.max(0, n * 1000 - now) : n * 1000;
  }
  return undefined;
}

/**
 * The limit an answer declares, in requests per second: RateLimit-Policy `q`/`w` (draft -10 §2.1), else
 * RateLimit-Limit with a `w` or the legacy `RateLimit-Limit: 60, 60;w=10` form. Undefined when none is given.
 */
export function declaredRateHint(headers: Readonly<Record<string, string>>): number | undefined {
  let slowest: number | undefined;
  for (const { q, w } of policyItems(headers)) {
    if (q === undefined || w === undefined || w <= 0) continue;
    slowest = slowest === undefined ? q / w : Math.min(slowest, q / w);
  }
  return slowest;
}

/**
 * The items of the first policy field an answer carries — RateLimit-Policy, else RateLimit-Limit, else
 * X-RateLimit-Limit — each with its quota (`q=`, or the number that leads it) and window (`w=`) where given.
 */
function policyItems(headers: Readonly<Record<string, string>>): { q?: number; w?: number }[] {
  const policy = headers['ratelimit-policy'] ?? headers['ratelimit-limit'] ?? headers['x-ratelimit-limit'];
  if (policy === undefined) return [];
  return policy.split(',').map((item) => {
    const q = /(?:^|;)\s*q=(\d+)/.exec(item)?.[1] ?? /^\s*(\d+)\s*(?:;|$)/.exec(item)?.[1];
    const w = /;\s*w=(\d+)/.exec(item)?.[1];
    return { ...(q === undefined ? {} : { q: Number(q) }), ...(w === undefined ? {} : { w: Number(w) }) };
  });
}

/**
 * The fields a limiter writes on the answers to the requests it counted, saying how many are left:
 * RateLimit (draft-ietf-httpapi-ratelimit-headers-10 §3.1 `r`, draft 7's `remaining`), RateLimit-Remaining
 * (earlier drafts, express-rate-limit's draft 6), X-RateLimit-Remaining (@fastify/rate-limit, GitHub) and
 * X-Rate-Limit-Remaining. A policy field alone (RateLimit-Policy) is not among them: a gateway may state its
 * policy on every answer, counted or not.
 */
const REMAINING_FIELDS = [
  'ratelimit',
  'ratelimit-remaining',
  'x-ratelimit-remaining',
  'x-rate-limit-remaining',
];

/**
 * The limit, in requests, an answer's rate-limit fields state — RateLimit-Policy's `q` (draft -10 §2.1) or the
 * number that leads it, else RateLimit-Limit or X-RateLimit-Limit (@fastify/rate-limit, express-rate-limit,
 * GitHub) — which names the limiter that counted the request where several count it. Undefined when none does.
 */
export function statedLimit(headers: Readonly<Record<string, string>>): number | undefined {
  return policyItems(headers)[0]?.q;
}

/** Whether the answer says the target's limiter counted its request (it states what is left). Names lower-case. */
export function countedByLimiter(headers: Readonly<Record<string, string>>): boolean {
  return REMAINING_FIELDS.some((name) => headers[name] !== undefined);
}
