/**
 * One request on its way through the pipeline (docs/design.md "Order of checks"). Each stage reads what earlier
 * stages established and either adds to it (returns undefined: go on) or decides the answer (returns a Reply).
 */

import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { Identity } from '../auth/types.ts';
import type { Reply } from '../http/reply.ts';
import type { AccessRule, Match } from '../routing/router.ts';

export interface Exchange {
  readonly req: IncomingMessage;
  /** As received; methods are case-sensitive (RFC 9110 §9.1). */
  readonly method: string;
  /** The clock reading for this request (epoch ms): the mock's clock (mock/clock.ts) over `MockConfig.clock`. */
  readonly now: number;
  /** Request path without the query string, not decoded. Set by the route stage. */
  path: string;
  /** Query string without the `?`, '' when absent. Set by the route stage. */
  query: string;
  /** Set by the route stage. */
  match: Match | undefined;
  /** Set by the method stage. */
  rule: AccessRule | undefined;
  /** Set by the credentials stage on a protected route. */
  identity: Identity | undefined;
  /**
   * The client address (socket, or Forwarded / X-Forwarded-For via trusted proxies); set on first need
   * (mock/access/client-address.ts).
   */
  client: string | undefined;
  /** The rate-limit key (`id:<identity>` or `ip:<address>`), when a limit applied. */
  clientKey: string | undefined;
  /**
   * The key the route's rate-limit group counted the request under (not its failed-attempt limit's, which
   * `clientKey` holds once a 400 or 401 is counted there): the journal's `limitKey`.
   */
  limitKey: string | undefined;
  /**
   * Why the request was refused or misbehaved, for the journal: an AuthFailureCode, `insufficient_role`,
   * `insufficient_scope`, `closed_route`, `ip_blocked`, `geo_blocked`, `rate_limited`, `banned`,
   * `fault_injected`. Never the credential.
   */
  outcome: string | undefined;
  /** A credential-free sentence explaining `outcome`. */
  outcomeReason: string | undefined;
  /** Fields added to whatever reply is written (the rate-limit headers of a limited route). */
  extraHeaders: OutgoingHttpHeaders | undefined;
}

export function createExchange(req: IncomingMessage, now: number): Exchange {
  return {
    req,
    method: req.method ?? '',
    now,
    path: '',
    query: '',
    match: undefined,
    rule: undefined,
    identity: undefined,
    client: undefined,
    clientKey: undefined,
    limitKey: undefined,
    outcome: undefined,
    outcomeReason: undefined,
    extraHeaders: undefined,
  };
}

/** undefined: the stage is satisfied, go on; a Reply: answer with it and stop. */
export type StageResult = Reply | undefined;

/** A stage is a small function; it may be async (credentials, body reading) or not (routing). */
export type Stage = (exchange: Exchange) => StageResult | Promise<StageResult>;

/** Thrown when a stage runs without what an earlier stage should have set: a wiring bug → 500. */
export function missing(what: string): never {
  throw new Error(`pipeline misuse: ${what} not set by an earlier stage`);
}
