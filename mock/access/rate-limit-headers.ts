/**
 * The rate-limit header fields, sent on every answer of a limited route.
 *
 * `ietf` (draft-ietf-httpapi-ratelimit-headers-10, Structured Field Values, RFC 9651):
 *   RateLimit-Policy = sf-list; each member a policy name (sf-string) with `q` (quota) and `w` (window, s)
 *     RateLimit-Policy: "default";q=300;w=10
 *   RateLimit = sf-list; the policy name with `r` (remaining quota units) and `t` (seconds until reset)
 *     RateLimit: "default";r=299;t=7
 * `legacy` (draft-ietf-httpapi-ratelimit-headers-06 and earlier, still the common form):
 *   RateLimit-Limit: 300, RateLimit-Remaining: 299, RateLimit-Reset: 7, RateLimit-Policy: 300;w=10
 *
 * As real limiters send them (docs/mock.md "Rate limiting: as real limiters count"):
 * `x-ratelimit` (@fastify/rate-limit): X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset (seconds);
 * `draft-7` (express-rate-limit): RateLimit-Policy: 60;w=10 and RateLimit: limit=60, remaining=59, reset=7;
 * `draft-8` (express-rate-limit): RateLimit-Policy: "60-in-10sec"; q=60; w=10; pk=:…: and
 *   RateLimit: "60-in-10sec"; r=59; t=7 (the partition key: a digest of the client key).
 *
 * `Retry-After` (RFC 9110 §10.2.3, delay-seconds) goes on the 429 (RFC 6585 §4: "MAY include a Retry-After
 * header indicating how long to wait") and on the 403 of a ban, whatever the style but `bare` (nginx's
 * limit_req, slowapi without headers: nothing at all); and alone on the 503 of a shared store that cannot be
 * reached (RFC 9110 §15.6.4: "The server MAY send a Retry-After header field").
 */

import { createHash } from 'node:crypto';
import type { OutgoingHttpHeaders } from 'node:http';
import type { Group, Verdict } from './rate-limit.ts';
import type { RateLimitHeaderStyle } from './rate-limit-settings.ts';

/** Whole seconds, rounded up: a client that waits this long is past the instant. Never below 1 when > 0 ms. */
export function seconds(ms: number): number {
  return ms <= 0 ? 0 : Math.ceil(ms / 1000);
}

/** The policy's window for `w`, an Integer in the draft: a fractional window is announced rounded up. */
function windowField(group: Group): number {
  return Math.max(1, Math.ceil(group.windowSeconds));
}

/** A group's fixed fields, made once per group (a group's quota and window do not change). */
interface FixedFields {
  readonly ietfPolicy: string;
  readonly legacyLimit: string;
  readonly legacyPolicy: string;
  /** draft-8's policy name, `"60-in-10sec"`, and its policy field up to the partition key. */
  readonly draft8Name: string;
  readonly draft8Policy: string;
}
const fixedFields = new WeakMap<Group, FixedFields>();

function fixedFieldsOf(group: Group): FixedFields {
  let fields = fixedFields.get(group);
  if (fields === undefined) {
    const draft8Name = `"${group.limit}-in-${windowField(group)}sec"`;
    fields = {
      ietfPolicy: `"${group.name}";q=${group.limit};w=${windowField(group)}`,
      legacyLimit: String(group.limit),
      legacyPolicy: `${group.limit};w=${windowField(group)}`,
      draft8Name,
      draft8Policy: `${draft8Name}; q=${group.limit}; w=${windowField(group)}; pk=:`,
    };
    fixedFields.set(group, fields);
  }
  return fields;
}

/** One policy's standing as the fields say it: its group, the quota left, whole seconds to its reset. */
interface Standing {
  readonly group: Group;
  readonly remaining: number;
  readonly reset: number;
}

/**
 * `group`: the group of the route; when the verdict was decided by its burst counter, the fields describe
 * that counter (its quota and window), since that is the limit the client must wait out.
 *
 * Several limits on the route (`alongside`): the list-valued fields name each — `ietf`'s RateLimit-Policy and
 * RateLimit are lists of policies (draft-ietf-httpapi-ratelimit-headers-10 §2: "a List of quota policies",
 * §3: "a List of service limits"), express-rate-limit's draft-8 appends one item per limiter, and draft-06/07's
 * RateLimit-Policy lists every quota policy — while a field that holds one limit (draft-06's trio, draft-7's
 * RateLimit, X-RateLimit-*) tells the one closest to its limit: the one that refused, else the least remaining.
 */
export function rateLimitHeaders(
  style: RateLimitHeaderStyle,
  routeGroup: Group,
  verdict: Verdict,
  clientKey = '',
): OutgoingHttpHeaders | undefined {
  if (verdict.kind === 'unavailable') {
    return { 'retry-after': String(Math.max(1, seconds(verdict.retryAfterMs))) };
  }
  const group = verdict.kind === 'limited' ? verdict.by : routeGroup;
  const remaining = verdict.kind === 'allowed' ? verdict.remaining : 0;
  // During a ban the quota comes back when the ban ends, not at the window's end.
  const reset = seconds(verdict.kind === 'banned' ? verdict.retryAfterMs : verdict.resetMs);
  const retry = verdict.kind === 'allowed' ? undefined : Math.max(1, reset);
  const one = { group, remaining, reset };
  if (verdict.kind === 'banned' || routeGroup.alongside.length === 0)
    return fields(style, [group], [one], one, retry, clientKey);
  // Refused by the route's own group: the others did not count it.
  const standings = verdict.policies?.map((p) => ({
    group: p.group,
    remaining: p.remaining,
    reset: seconds(p.resetMs),
  })) ?? [one];
  const groups = [routeGroup, ...routeGroup.alongside];
  for (const p of standings) if (!groups.includes(p.group)) groups.push(p.group);
  const closest =
    verdict.kind === 'limited'
      ? (standings.at(-1) as Standing)
      : standings.reduce((a, b) =>
          b.remaining < a.remaining || (b.remaining === a.remaining && b.reset > a.reset) ? b : a,
        );
  return fields(style, groups, standings, closest, retry, clientKey);
}

/** The fields of `style` for the route's policies, the standings counted, and the one closest to its limit. */
function fields(
  style: RateLimitHeaderStyle,
  groups: readonly Group[],
  standings: readonly Standing[],
  closest: Standing,
  retry: number | undefined,
  clientKey: string,
): OutgoingHttpHeaders | undefined {
  // No closure is made here per answer: run from TypeScript (tsx keeps function names), each named one costs
  // a property definition, ≈ 3 µs per answer together — the largest of the mock's own frames (issue #72).
  switch (style) {
    case 'ietf':
      return withRetry(
        {
          'ratelimit-policy': policyList(groups, ietfPolicyOf),
          ratelimit: standingList(standings, ietfStandingOf),
        },
        retry,
      );
    case 'legacy':
      return withRetry(
        {
          'ratelimit-limit': fixedFieldsOf(closest.group).legacyLimit,
          'ratelimit-remaining': String(closest.remaining),
          'ratelimit-reset': String(closest.reset),
          'ratelimit-policy': policyList(groups, legacyPolicyOf),
        },
        retry,
      );
    case 'x-ratelimit':
      return withRetry(
        {
          'x-ratelimit-limit': fixedFieldsOf(closest.group).legacyLimit,
          'x-ratelimit-remaining': String(closest.remaining),
          'x-ratelimit-reset': String(closest.reset),
        },
        retry,
      );
    case 'draft-7':
      return withRetry(
        {
          'ratelimit-policy': policyList(groups, legacyPolicyOf),
          ratelimit: `limit=${closest.group.limit}, remaining=${closest.remaining}, reset=${closest.reset}`,
        },
        retry,
      );
    case 'draft-8': {
      const pk = partitionKey(clientKey);
      const policies: string[] = [];
      for (const g of groups) policies.push(`${fixedFieldsOf(g).draft8Policy}${pk}:`);
      return withRetry(
        { 'ratelimit-policy': policies.join(', '), ratelimit: standingList(standings, draft8StandingOf) },
        retry,
      );
    }
    case 'none':
      return retry === undefined ? undefined : { 'retry-after': String(retry) };
    case 'bare':
      return undefined;
  }
}

/** Retry-After (RFC 9110 §10.2.3) on a refusal; `retry` is undefined on an allowed answer. */
function withRetry(headers: OutgoingHttpHeaders, retry: number | undefined): OutgoingHttpHeaders {
  if (retry !== undefined) headers['retry-after'] = String(retry);
  return headers;
}

/** A list-valued field's members, one per policy, comma-separated (an sf-list, or draft-06/07's list). */
function policyList(groups: readonly Group[], item: (group: Group) => string): string {
  if (groups.length === 1) return item(groups[0] as Group);
  return groups.map(item).join(', ');
}

function standingList(standings: readonly Standing[], item: (standing: Standing) => string): string {
  if (standings.length === 1) return item(standings[0] as Standing);
  return standings.map(item).join(', ');
}

function ietfPolicyOf(group: Group): string {
  return fixedFieldsOf(group).ietfPolicy;
}

function legacyPolicyOf(group: Group): string {
  return fixedFieldsOf(group).legacyPolicy;
}

function ietfStandingOf(p: Standing): string {
  return `"${p.group.name}";r=${p.remaining};t=${p.reset}`;
}

function draft8StandingOf(p: Standing): string {
  return `${fixedFieldsOf(p.group).draft8Name}; r=${p.remaining}; t=${p.reset}`;
}

/** Partition keys by client key (interned strings, mock/access/client-keys.ts), bounded like those tables. */
const partitionKeys = new Map<string, string>();
const MAX_PARTITION_KEYS = 10_000;

/**
 * express-rate-limit's draft-8 partition key: the SHA-256 of the client key, 12 hex digits, in base64 — worked
 * out once per client, not on every answer.
 */
function partitionKey(clientKey: string): string {
  let key = partitionKeys.get(clientKey);
  if (key === undefined) {
    if (partitionKeys.size >= MAX_PARTITION_KEYS) partitionKeys.clear();
    const hex = createHash('sha256').update(clientKey).digest('hex').slice(0, 12);
    key = Buffer.from(hex).toString('base64');
    partitionKeys.set(clientKey, key);
  }
  return key;
}
