/**
 * Every method on a path the target does not have (issue #68): route.404.unknown-path (not-found.ts) sends GET
 * only; a target whose catch-all route takes GET answers POST there with 405 and an Allow — a method refused
 * on a resource that does not exist — or serves the write. Seed §7: 404 "The requested resource cannot be
 * found"; RFC 9110 §15.5.5: 404 says the origin server "did not find a current representation for the target
 * resource", whatever the method; §15.5.6: 405 says the method "is known by the origin server but not
 * supported by the target resource" — a resource there is none of.
 */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

/**
 * MUST (seed §7 404, RFC 9110 §15.5.5). Without credentials a 401 is accepted too: which check comes first on a
 * path that does not exist is the target's (info.order-of-checks, docs/design.md "Order of checks").
 */
export const unknownPathMethods: Rule = {
  id: 'route.404.unknown-path-methods',
  level: 'MUST',
  requirement:
    'POST, PUT, PATCH and DELETE to a path the target does not have are answered with 404 with valid credentials, and with 404 or 401 without — never 405, never 2xx.',
  refs: [seed('7', '404'), seed('7', '405'), rfc(9110, '15.5.5'), rfc(9110, '15.5.6')],
  statuses: [401, 404],
  needs: ['endpoints.missing'],
  impact: 'status',
  remedy:
    'Route before answering for methods: a path no route matches is 404 for every method, not 405 from a catch-all route that takes GET, and never served.',
};

export const notFoundMethodRules: readonly Rule[] = [unknownPathMethods];
