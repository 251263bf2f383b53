/** 403: understood but refused, and authenticating again does not change it (seed §7 403; RFC 9110 §15.5.4). */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

export const lackingRole: Rule = {
  id: 'authz.403.lacking-role',
  level: 'MUST',
  requirement:
    'An authenticated identity lacking the admin role is refused on the admin path with 403 (404 if the target hides the resource), never 2xx or 401.',
  refs: [seed('7', '403'), rfc(9110, '15.5.4'), rfc(6750, '3.1')],
  statuses: [403],
  needs: ['endpoints.admin', 'identities.user'],
  requires: ['admin-role'],
  impact: 'status',
  remedy:
    'Check the role after authentication and answer 403 (or 404 to hide the resource) to an identity that lacks it.',
};

export const lackingScope: Rule = {
  id: 'authz.403.lacking-scope',
  level: 'MUST',
  requirement:
    'An authenticated identity without write permission is refused a write with 403, in every accepted scheme.',
  refs: [seed('7', '403 cause 3'), rfc(9110, '15.5.4')],
  statuses: [403],
  needs: ['endpoints.collection.writeSchemes', 'endpoints.collection.sampleItem', 'identities.user'],
  requires: ['write-role'],
  impact: 'status',
  remedy:
    'Check write permission on every write and answer 403 to an authenticated identity without it, in every scheme.',
};

export const reauthSame: Rule = {
  id: 'authz.403.reauth-same',
  level: 'MUST',
  requirement: 'After a 403, sending the same valid credentials again gets 403 again.',
  refs: [seed('7', '403'), rfc(9110, '15.5.4')],
  statuses: [403],
  needs: ['endpoints.admin', 'identities.user'],
  requires: ['admin-role'],
  impact: 'status',
  remedy: "Decide a 403 from the identity's permissions alone: the same credentials again get 403 again.",
};

export const reauthFresh: Rule = {
  id: 'authz.403.reauth-fresh',
  level: 'MUST',
  requirement: 'After a 403, a freshly minted valid token for the same identity gets 403 again.',
  refs: [seed('7', '403'), rfc(9110, '15.5.4')],
  statuses: [403],
  needs: ['jwt', 'identities.user.jwtClaims', 'endpoints.admin'],
  requires: ['jwt', 'admin-role'],
  impact: 'status',
  remedy:
    'Read roles from the verified token of each request, not from a cache keyed by anything a fresh token changes.',
};

export const reauthOtherScheme: Rule = {
  id: 'authz.403.reauth-other-scheme',
  level: 'MUST',
  requirement: 'After a 403, the same identity authenticating with another accepted scheme gets 403 again.',
  refs: [seed('7', '403'), rfc(9110, '15.5.4')],
  statuses: [403],
  needs: ['endpoints.admin.schemes', 'endpoints.collection.writeSchemes'],
  requires: ['refused-two-schemes'],
  impact: 'status',
  remedy:
    'Resolve every scheme to the same identity and its permissions: switching schemes never lifts a 403.',
};

export const forbiddenRules: readonly Rule[] = [
  lackingRole,
  lackingScope,
  reauthSame,
  reauthFresh,
  reauthOtherScheme,
];
