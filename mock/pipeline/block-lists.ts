/**
 * Stage 3, block lists and access rules (403), after method and before credentials (docs/design.md "Order of
 * checks"; seed §7, 403 causes 2 and 5). In order:
 *   a route the policy marks `closed` → 403 for everyone;
 *   a client address in `access.blockedIps` → 403;
 *   a country in `access.blockedCountries`, read from the header an edge proxy sets → 403;
 *   a route whose rate-limit group is keyed by `address` (or `route`): every request counts against the client
 *   address (and route) here, before credentials, whatever the identity or the outcome (as a gateway in front
 *   of the API does) → 429 (or the group's 503), or 403 while banned;
 *   an address this process already knows to be over its failed-attempt limit (or banned for it) on a
 *   protected route → 429 (or 403) before its credentials are checked, so a client cannot keep guessing.
 * Nothing configured and no limit known: the stage costs a property read and returns.
 */

import { type CidrList, parseAddress } from '../access/cidr.ts';
import type { ClientAddress } from '../access/client-address.ts';
import { addressKey, credentialKey, routeKey } from '../access/client-keys.ts';
import type { Group, RateLimiter, Verdict } from '../access/rate-limit.ts';
import { problem } from '../http/problem.ts';
import type { Reply } from '../http/reply.ts';
import { type Exchange, missing, type Stage, type StageResult } from './exchange.ts';
import { clientOf, note } from './notes.ts';
import { answer, answerWhenCounted } from './rate-limit.ts';

export interface AccessStageOptions {
  readonly address: ClientAddress;
  readonly blockedIps: CidrList | undefined;
  /** Lower-case header name (Node lower-cases incoming names). */
  readonly countryHeader: string;
  /** Upper-case ISO 3166-1 alpha-2 codes. */
  readonly blockedCountries: ReadonlySet<string> | undefined;
  readonly limiter: RateLimiter | undefined;
}

/** Addresses whose block-list verdict is kept (a few kilobytes at most). */
const MAX_VERDICTS = 4096;

export function blockListsStage(options: AccessStageOptions): Stage {
  const { address, blockedIps, countryHeader, blockedCountries, limiter } = options;
  const closedReplies = new Map<string, Reply>();
  const closed = (pattern: string): Reply => {
    let reply = closedReplies.get(pattern);
    if (reply === undefined) {
      reply = problem(
        'route-closed',
        `${pattern} is closed to every client by this server's access rules.`,
        undefined,
        {
          code: 'closed_route',
        },
      );
      closedReplies.set(pattern, reply);
    }
    return reply;
  };

  // The list is fixed at start-up, so an address's verdict is too: parsed and matched once, then looked up
  // (a keep-alive client sends many requests from one address). Bounded: emptied when full.
  const verdicts = new Map<string, boolean>();
  const isBlocked = (client: string): boolean => {
    let blocked = verdicts.get(client);
    if (blocked === undefined) {
      const parsed = parseAddress(client);
      blocked = parsed !== undefined && (blockedIps as CidrList).has(parsed);
      if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
      verdicts.set(client, blocked);
    }
    return blocked;
  };

  return (exchange) => {
    const rule = exchange.rule ?? missing('rule');
    if (rule.closed) {
      const pattern = (exchange.match ?? missing('match')).route.pattern;
      note(exchange, 'closed_route', `${pattern} is closed to every client`);
      return closed(pattern);
    }
    if (blockedIps !== undefined) {
      const client = clientOf(exchange, address);
      if (isBlocked(client)) {
        const detail = `Requests from ${client} are blocked by this server's access rules.`;
        note(exchange, 'ip_blocked', detail);
        return problem('ip-blocked', detail, undefined, { code: 'ip_blocked' });
      }
    }
    if (blockedCountries !== undefined) {
      const value = exchange.req.headers[countryHeader];
      const country = typeof value === 'string' ? value.trim().toUpperCase() : undefined;
      if (country !== undefined && blockedCountries.has(country)) {
        const detail = `Requests from country ${country} are blocked by this server's access rules.`;
        note(exchange, 'geo_blocked', detail);
        return problem('geo-blocked', detail, undefined, { code: 'geo_blocked' });
      }
    }
    if (limiter === undefined || !limiter.settings.enabled) return undefined;
    const group = limiter.groupFor((exchange.match ?? missing('match')).route, exchange.method);
    if (group === undefined) return undefined;
    const client = clientOf(exchange, address);
    const key = addressKey(client);
    if (group.key === 'identity') return failedBefore(limiter, exchange, group, key);
    // Per address, per address and route, or per credential value: counted here, before credentials, as a gateway in front would.
    const counted =
      group.key === 'route'
        ? routeKey(client, (exchange.match ?? missing('match')).route.pattern)
        : group.key === 'credential'
          ? credentialKey(exchange.req.headers.authorization, key)
          : key;
    exchange.clientKey = counted;
    exchange.limitKey = counted;
    const verdict = limiter.hit(group, counted, exchange.now);
    if (verdict instanceof Promise) return addressCountedLater(limiter, exchange, group, key, verdict);
    return answer(limiter, exchange, group, verdict) ?? afterCounted(limiter, exchange, group, key, verdict);
  };
}

/**
 * An allowed request goes on to the failed-attempt check; a leaky bucket without `nodelay` first holds it until
 * its excess has leaked (nginx delays it so).
 */
function afterCounted(
  limiter: RateLimiter,
  exchange: Exchange,
  group: Group,
  key: string,
  verdict: Verdict,
): StageResult | Promise<StageResult> {
  const delayMs = verdict.kind === 'allowed' ? (verdict.delayMs ?? 0) : 0;
  if (delayMs <= 0) return failedBefore(limiter, exchange, group, key);
  return new Promise<void>((resolve) => setTimeout(resolve, delayMs)).then(() =>
    failedBefore(limiter, exchange, group, key),
  );
}

async function addressCountedLater(
  limiter: RateLimiter,
  exchange: Exchange,
  group: Group,
  key: string,
  pending: Promise<Verdict>,
): Promise<StageResult> {
  const verdict = await pending;
  return answer(limiter, exchange, group, verdict) ?? afterCounted(limiter, exchange, group, key, verdict);
}

/** An address already known to be over its failed-attempt limit on a protected route → 429 (403 if banned). */
function failedBefore(
  limiter: RateLimiter,
  exchange: Exchange,
  group: Group,
  key: string,
): StageResult | Promise<StageResult> {
  if ((exchange.rule ?? missing('rule')).public) return undefined;
  const known = limiter.knownOver(group.failures, key, exchange.now);
  if (known === undefined) return undefined;
  exchange.clientKey = key;
  return answerWhenCounted(limiter, exchange, group.failures, known);
}
