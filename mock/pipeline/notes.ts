/**
 * What the access stages leave on the exchange for later stages and for the journal: the client address
 * (computed once per request, on first need), the outcome code and its credential-free reason.
 */

import type { ClientAddress } from '../access/client-address.ts';
import type { Exchange } from './exchange.ts';

/**
 * Journal outcome codes set by the framing check (mock/http/host.ts, mock/http/expect.ts), the access,
 * rate-limit and fault stages (mock/auth sets its own).
 */
export type AccessOutcome =
  | 'host_invalid'
  | 'expectation_unmet'
  | 'closed_route'
  | 'ip_blocked'
  | 'geo_blocked'
  | 'rate_limited'
  | 'banned'
  | 'limits_unavailable'
  | 'fault_injected'
  | 'fault_header_invalid';

export function note(exchange: Exchange, outcome: AccessOutcome, reason: string): void {
  exchange.outcome = outcome;
  exchange.outcomeReason = reason;
}

export function clientOf(exchange: Exchange, address: ClientAddress): string {
  if (exchange.client === undefined) exchange.client = address(exchange.req);
  return exchange.client;
}
