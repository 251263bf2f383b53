/**
 * Credential checks probed at their boundaries: each rule takes a valid credential from the profile and
 * changes it in one way a lenient comparison lets through (seed §5 rule 2: "A request to a protected resource
 * without valid credentials is answered with … 401"; RFC 9110 §15.5.2). Well-formed results get 401; a change
 * that leaves the header malformed may get 400 instead (RFC 9110 §15.5.1, RFC 6750 §3.1 invalid_request).
 * Each rule names its boundary, so a report says which comparison broke (docs/rules.md).
 */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

const CHECKED = [seed('5', 'rule 2'), rfc(9110, '15.5.2')];

export const emptySecret: Rule = {
  id: 'auth.boundary.empty-secret',
  level: 'MUST',
  requirement:
    'A known Basic user-id with an empty password is answered with 401; a scheme with an empty token or key with 400 or 401.',
  refs: [...CHECKED, rfc(7617, '2'), rfc(9110, '11.4')],
  statuses: [400, 401],
  needs: ['identities.*.basic / bearer / apikey'],
  impact: 'access',
  remedy: 'Refuse an empty password, token or key before any lookup; never treat an empty secret as a match.',
};

export const secretPrefix: Rule = {
  id: 'auth.boundary.prefix',
  level: 'MUST',
  requirement:
    'Proper prefixes of a valid password, token or key (all but the last character, the first half, the first character) are answered with 401.',
  refs: [...CHECKED, rfc(7617, '2'), rfc(6750, '3.1')],
  statuses: [401],
  needs: ['identities.*.basic / bearer / apikey'],
  impact: 'access',
  remedy: 'Compare the whole secret (constant-time, full length), never a prefix of it.',
};

export const secretSuffix: Rule = {
  id: 'auth.boundary.suffix-extended',
  level: 'MUST',
  requirement: 'A valid password, token or key with characters appended is answered with 401.',
  refs: [...CHECKED, rfc(7617, '2'), rfc(6750, '3.1')],
  statuses: [401],
  needs: ['identities.*.basic / bearer / apikey'],
  impact: 'access',
  remedy: 'Compare the whole secret and its length: a secret with characters appended is another secret.',
};

export const oneCharacterChanged: Rule = {
  id: 'auth.boundary.one-char-changed',
  level: 'MUST',
  requirement:
    'A valid password, token or key with one character changed at its start, in its middle or at its end is answered with 401.',
  refs: [...CHECKED, rfc(7617, '2'), rfc(6750, '3.1')],
  statuses: [401],
  needs: ['identities.*.basic / bearer / apikey'],
  impact: 'access',
  remedy: 'Compare every character of the secret (a hash or constant-time comparison of the whole value).',
};

export const caseChanged: Rule = {
  id: 'auth.boundary.case-changed',
  level: 'MUST',
  requirement:
    'A valid password, token or key with its letter case inverted is answered with 401 (only the scheme name is case-insensitive).',
  refs: [...CHECKED, rfc(9110, '11.1'), rfc(7617, '2')],
  statuses: [401],
  needs: ['identities.*.basic / bearer / apikey'],
  impact: 'access',
  remedy: 'Compare secrets case-sensitively; only the scheme word is case-insensitive.',
};

export const whitespace: Rule = {
  id: 'auth.boundary.whitespace',
  level: 'MUST',
  requirement:
    'Basic: a space before the user-id or after the password inside the base64 payload is answered with 401; Bearer and Apikey: the valid token followed by whitespace and another word with 400 or 401.',
  refs: [...CHECKED, rfc(7617, '2'), rfc(9110, '11.4'), rfc(6750, '2.1')],
  statuses: [400, 401],
  needs: ['identities.*.basic / bearer / apikey'],
  impact: 'access',
  remedy:
    'Do not trim inside credentials: compare the decoded Basic user-id and password as sent, and refuse a token followed by another word.',
};

export const otherIdentityPassword: Rule = {
  id: 'auth.boundary.other-identity-password',
  level: 'MUST',
  requirement: "A known Basic user-id with another identity's valid password is answered with 401.",
  refs: [...CHECKED, rfc(7617, '2')],
  statuses: [401],
  needs: ['identities.admin.basic', 'identities.user.basic'],
  requires: ['basic', 'two-identities'],
  impact: 'access',
  remedy: "Check the password against the named user's own stored password, not against any known password.",
};

/**
 * A credential is valid under its own scheme only (seed §5: each scheme names its credential; RFC 9110 §11.4:
 * the scheme says how its credentials are read): a key sent as a Bearer token, a token as a key, a password as
 * a token or key, a token as the Basic password of its identity's user-id, is no valid credential. A secret that
 * is no token68 under another scheme (a password with ":") may be answered 400.
 */
export const otherScheme: Rule = {
  id: 'auth.boundary.other-scheme',
  level: 'MUST',
  requirement:
    "A valid password, token or key sent under every other scheme the target accepts (the key as a Bearer token, the token as a key, the password as a token or key, the token as the identity's Basic password) is answered with 400 or 401.",
  refs: [...CHECKED, rfc(9110, '11.4'), rfc(6750, '2.1'), rfc(7617, '2')],
  statuses: [400, 401],
  needs: ['identities.*.basic / bearer / apikey', 'endpoints.*.schemes (two or more)'],
  requires: ['two-schemes'],
  impact: 'access',
  remedy:
    'Verify each credential by the scheme it is sent under: a key is no Bearer token, a token no key or password.',
};

export const boundaryRules: readonly Rule[] = [
  emptySecret,
  secretPrefix,
  secretSuffix,
  oneCharacterChanged,
  caseChanged,
  whitespace,
  otherIdentityPassword,
  otherScheme,
];
