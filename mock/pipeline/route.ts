/**
 * Stage 1, route (404). Splits the request target (RFC 9112 §3.2) into path and query and finds the route.
 * Unknown path → 404 before anything else: a client learns nothing about credentials on paths that do not
 * exist.
 */

import { NOT_FOUND, problem } from '../http/problem.ts';
import { BASE_HEADERS, type Reply } from '../http/reply.ts';
import type { Router } from '../routing/router.ts';
import type { Exchange, Stage } from './exchange.ts';

const ALL_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

/** RFC 9110 §9.3.7: `OPTIONS *` asks about the server as a whole. */
const SERVER_OPTIONS: Reply = {
  status: 204,
  headers: { ...BASE_HEADERS, allow: ALL_METHODS },
  body: undefined,
};

const BAD_TARGET = problem(
  'bad-request',
  'The request target must be a path (origin-form) or an absolute URL.',
);

/**
 * Sets the exchange's path and query from its request target: origin-form as sent, absolute-form (RFC 9112
 * §3.2.2, which a server MUST accept) by its path and query. False for any other target (`*` included).
 */
export function readTarget(exchange: Exchange): boolean {
  let target = exchange.req.url ?? '';
  if (target.charCodeAt(0) !== 47 /* '/' */) {
    if (!URL.canParse(target)) return false;
    const url = new URL(target);
    target = url.pathname + url.search;
  }
  const q = target.indexOf('?');
  exchange.path = q === -1 ? target : target.slice(0, q);
  exchange.query = q === -1 ? '' : target.slice(q + 1);
  return true;
}

export function routeStage(router: Router): Stage {
  return (exchange) => {
    // The Host lines are checked before the pipeline, for every path (mock/http/host.ts).
    if (exchange.req.url === '*') return exchange.method === 'OPTIONS' ? SERVER_OPTIONS : BAD_TARGET;
    if (!readTarget(exchange)) return BAD_TARGET;
    const match = router.match(exchange.path);
    if (match === undefined) return NOT_FOUND;
    exchange.match = match;
    return undefined;
  };
}
