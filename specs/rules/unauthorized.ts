/** 401: missing or invalid credentials, and the challenge every 401 carries (seed §5, §7; RFC 9110 §11, §15.5.2). */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

export const missingCredentials: Rule = {
  id: 'auth.401.missing',
  level: 'MUST',
  requirement: 'A request to a protected path without an Authorization header is answered with 401.',
  refs: [seed('5', 'rule 2'), seed('7', '401'), rfc(9110, '15.5.2')],
  statuses: [401],
  needs: ['endpoints.protected'],
  impact: 'status',
  remedy:
    'Authenticate before anything else on a protected path: a request without Authorization gets 401 with a WWW-Authenticate challenge, never 403, 404 or the resource.',
};

export const invalidBearer: Rule = {
  id: 'auth.401.invalid-bearer',
  level: 'MUST',
  requirement: 'A well-formed Bearer token the target did not issue is answered with 401.',
  refs: [seed('5', 'rule 2'), rfc(6750, '3.1'), rfc(9110, '15.5.2')],
  statuses: [401],
  needs: ['endpoints.*.schemes (bearer)'],
  requires: ['bearer'],
  impact: 'status',
  remedy:
    'Verify every Bearer token (signature, issuer, expiry) and answer 401 with a Bearer challenge to one the target did not issue.',
};

export const invalidBasic: Rule = {
  id: 'auth.401.invalid-basic',
  level: 'MUST',
  requirement:
    'Well-formed Basic credentials with an unknown user or a wrong password are answered with 401.',
  refs: [seed('5', 'rule 2'), rfc(7617, '2'), rfc(9110, '15.5.2')],
  statuses: [401],
  needs: ['endpoints.*.schemes (basic)'],
  requires: ['basic'],
  impact: 'status',
  remedy:
    'Compare the decoded user-id and password with the stored ones and answer 401 with a Basic challenge when either is wrong.',
};

export const invalidApikey: Rule = {
  id: 'auth.401.invalid-apikey',
  level: 'MUST',
  requirement: 'A well-formed API key the target does not know is answered with 401.',
  refs: [seed('5', 'rule 2'), rfc(9110, '15.5.2')],
  statuses: [401],
  needs: ['endpoints.*.schemes (apikey)'],
  requires: ['apikey'],
  impact: 'status',
  remedy: 'Look the whole key up and answer 401 when it is unknown; never fall back to another check.',
};

export const unacceptedScheme: Rule = {
  id: 'auth.401.unaccepted-scheme',
  level: 'MUST',
  requirement:
    'Credentials in a scheme the path does not accept (a known one, or an unregistered one) are answered with 401.',
  refs: [seed('5', 'rule 2'), rfc(9110, '11.6.1'), rfc(9110, '15.5.2')],
  statuses: [401],
  needs: ['endpoints.protected.schemes'],
  impact: 'status',
  remedy:
    'Treat credentials in a scheme the path does not take as no credentials: 401 with a challenge naming the schemes the path takes.',
};

export const thenValid: Rule = {
  id: 'auth.401.then-valid',
  level: 'MUST',
  requirement: 'After a 401, repeating the request with valid credentials answers 200.',
  refs: [seed('5', 'rule 2'), seed('7', '401'), rfc(9110, '15.5.2')],
  statuses: [401, 200],
  needs: ['endpoints.protected', 'identities.user'],
  impact: 'refusal',
  remedy:
    'Keep no state from a refused request: the same request with valid credentials right after a 401 gets 200.',
};

export const challengePresent: Rule = {
  id: 'auth.401.challenge',
  level: 'MUST',
  requirement:
    'Every 401 carries a WWW-Authenticate field that parses as a challenge list and names at least one scheme the path accepts.',
  refs: [rfc(9110, '15.5.2'), rfc(9110, '11.6.1'), rfc(6750, '3')],
  statuses: [401],
  needs: ['endpoints.protected'],
  impact: 'status',
  remedy:
    'Send a WWW-Authenticate field on every 401, parseable as RFC 9110 §11.6.1 challenges, naming a scheme the path takes.',
};

export const challengePerScheme: Rule = {
  id: 'auth.401.challenge-per-scheme',
  level: 'SHOULD',
  requirement: 'A 401 on a path that accepts several schemes carries one challenge for each of them.',
  refs: [rfc(9110, '11.6.1'), rfc(9110, '11.3')],
  statuses: [401],
  needs: ['endpoints.protected.schemes'],
  requires: ['two-schemes'],
  impact: 'status',
  remedy:
    'On a path that takes several schemes, send one challenge per scheme in the 401 (one field or several).',
};

export const unauthorizedRules: readonly Rule[] = [
  missingCredentials,
  invalidBearer,
  invalidBasic,
  invalidApikey,
  unacceptedScheme,
  thenValid,
  challengePresent,
  challengePerScheme,
];
