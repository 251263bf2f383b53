/**
 * 403 for the access causes seed §7 names besides permissions and rate limits: cause 2 "The IP address or
 * geographic location is blocked" and cause 5 "Server-configured access-control rules apply" — and, as for
 * every 403, "Authenticating again does not change the result" (RFC 9110 §15.5.4). The profile says how to
 * appear blocked (`blocked`, docs/profile.md); without it these rules skip.
 */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

export const blockedClient: Rule = {
  id: 'access.403.blocked-client',
  level: 'MUST',
  requirement:
    'A client the target blocks by address or location gets 403 (not 401, 404 or 2xx) with valid credentials, and again with fresh credentials.',
  refs: [seed('7', '403 cause 2'), seed('7', '403'), rfc(9110, '15.5.4')],
  statuses: [403],
  needs: ['blocked.clients', 'endpoints.protected'],
  requires: ['blocking'],
  impact: 'status',
  remedy:
    'Apply the address or location block to every request from the client, before or after authentication but always: 403 with valid credentials too.',
};

export const unblockedServed: Rule = {
  id: 'access.403.unblocked-served',
  level: 'MUST',
  requirement:
    'The same request from a client the target does not block is served (200): the block is by client, not by path.',
  refs: [seed('7', '403 cause 2'), seed('4', 'rule 2')],
  statuses: [200],
  needs: ['blocked.clients', 'endpoints.protected'],
  requires: ['blocking'],
  impact: 'refusal',
  remedy: 'Block by client, not by path: the same request from a client not blocked is served.',
};

export const closedPath: Rule = {
  id: 'access.403.closed-path',
  level: 'MUST',
  requirement:
    'A request the target closes by configuration gets 403 (not 401, 404 or 2xx) with valid credentials, and again with fresh credentials.',
  refs: [seed('7', '403 cause 5'), seed('7', '403'), rfc(9110, '15.5.4')],
  statuses: [403],
  needs: ['blocked.closed'],
  requires: ['closed-route'],
  impact: 'status',
  remedy: 'Answer 403 to a request the access rules close to everyone, whatever credentials it carries.',
};

export const accessRules: readonly Rule[] = [blockedClient, unblockedServed, closedPath];
