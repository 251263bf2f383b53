/**
 * What the defects that undo a refusal share (mock/defects/<layer>/*.ts): whether a reply is the refusal of
 * the credentials or authorization stage (not a block list, a closed route, a rate limit or a bad body).
 */
import type { Reply } from '../../http/reply.ts';
import type { Exchange } from '../../pipeline/exchange.ts';
import type { AccessOutcome } from '../../pipeline/notes.ts';

/** Outcomes of the access, rate-limit and fault stages (mock/pipeline/notes.ts): no credential refusal. */
const ACCESS_OUTCOMES: ReadonlySet<string> = new Set([
  'closed_route',
  'ip_blocked',
  'geo_blocked',
  'rate_limited',
  'banned',
  'limits_unavailable',
  'fault_injected',
  'fault_header_invalid',
] satisfies readonly AccessOutcome[]);

/**
 * A 400, 401 or 403 of the credentials stage (malformed, missing, invalid credentials) or the authorization
 * stage (a role or scope lacking), on a matched route.
 */
export function refusedCredentials(reply: Reply, exchange: Exchange): boolean {
  if (reply.status !== 400 && reply.status !== 401 && reply.status !== 403) return false;
  const { outcome } = exchange;
  return (
    exchange.match !== undefined &&
    outcome !== undefined &&
    !ACCESS_OUTCOMES.has(outcome) &&
    // The handler's body refusals (mock/http/body.ts) come after every check.
    !outcome.startsWith('body_')
  );
}
