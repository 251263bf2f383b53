/** The content of challenges: realm syntax, Basic (RFC 7617 §2) and Bearer (RFC 6750 §3) specifics. */
import { rfc } from './refs.ts';
import type { Rule } from './types.ts';

export const realmQuoted: Rule = {
  id: 'auth.challenge.realm-quoted',
  level: 'MUST',
  requirement: 'A realm parameter in any challenge is sent as a quoted-string.',
  refs: [rfc(9110, '11.5'), rfc(9110, '11.2')],
  statuses: [401],
  needs: ['endpoints.protected'],
  impact: 'status',
  remedy: 'Write the realm parameter as a quoted-string: realm="api", not realm=api.',
};

export const basicRealm: Rule = {
  id: 'basic.challenge.realm',
  level: 'MUST',
  requirement: 'A Basic challenge carries the realm parameter.',
  refs: [rfc(7617, '2')],
  statuses: [401],
  needs: ['endpoints.*.schemes (basic)'],
  requires: ['basic'],
  impact: 'status',
  remedy: 'Give the Basic challenge a realm parameter (RFC 7617 §2: it is required).',
};

export const basicCharset: Rule = {
  id: 'basic.challenge.charset',
  level: 'MUST',
  requirement: 'A charset parameter in a Basic challenge, when present, is "UTF-8".',
  refs: [rfc(7617, '2.1')],
  statuses: [401],
  needs: ['endpoints.*.schemes (basic)'],
  requires: ['basic'],
  impact: 'status',
  remedy: 'Leave charset out of the Basic challenge or send exactly charset="UTF-8".',
};

export const bearerMissingNoError: Rule = {
  id: 'bearer.challenge.missing-no-error',
  level: 'SHOULD',
  requirement: 'The Bearer challenge of a 401 for a request without credentials carries no error code.',
  refs: [rfc(6750, '3.1'), rfc(6750, '3')],
  statuses: [401],
  needs: ['endpoints.*.schemes (bearer)'],
  requires: ['bearer'],
  impact: 'status',
  remedy:
    'Send the Bearer challenge without an error code when the request carried no credentials (RFC 6750 §3.1).',
};

export const bearerInvalidToken: Rule = {
  id: 'bearer.challenge.invalid-token',
  level: 'SHOULD',
  requirement: 'The Bearer challenge of a 401 for a refused token carries error="invalid_token".',
  refs: [rfc(6750, '3'), rfc(6750, '3.1')],
  statuses: [401],
  needs: ['endpoints.*.schemes (bearer)'],
  requires: ['bearer'],
  impact: 'status',
  remedy: 'Add error="invalid_token" to the Bearer challenge of a 401 for a refused token.',
};

export const bearerErrorStatus: Rule = {
  id: 'bearer.error.code-status',
  level: 'SHOULD',
  requirement:
    'A Bearer error code is one of invalid_request, invalid_token, insufficient_scope and comes with 400, 401, 403 respectively.',
  refs: [rfc(6750, '3.1')],
  statuses: [400, 401, 403],
  needs: ['endpoints.*.schemes (bearer)'],
  requires: ['bearer'],
  impact: 'status',
  remedy:
    'Pair each Bearer error code with its status: invalid_request 400, invalid_token 401, insufficient_scope 403.',
};

export const bearerInsufficientScope: Rule = {
  id: 'bearer.403.insufficient-scope',
  level: 'SHOULD',
  requirement:
    'A 403 for a Bearer token lacking the role or scope carries a Bearer challenge with error="insufficient_scope".',
  refs: [rfc(6750, '3.1'), rfc(6750, '3')],
  statuses: [403],
  needs: ['endpoints.admin', 'identities.user.bearer'],
  requires: ['bearer', 'admin-role'],
  impact: 'status',
  remedy:
    'Add a Bearer challenge with error="insufficient_scope" to a 403 for a token that lacks the role or scope.',
};

export const challengeRules: readonly Rule[] = [
  realmQuoted,
  basicRealm,
  basicCharset,
  bearerMissingNoError,
  bearerInvalidToken,
  bearerErrorStatus,
  bearerInsufficientScope,
];
