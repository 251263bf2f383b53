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
};

export const invalidBearer: Rule = {
  id: 'auth.401.invalid-bearer',
  level: 'MUST',
  requirement: 'A well-formed Bearer token the target did not issue is answered with 401.',
  refs: [seed('5', 'rule 2'), rfc(6750, '3.1'), rfc(9110, '15.5.2')],
  statuses: [401],
  needs: ['endpoints.*.schemes (bearer)'],
};

export const invalidBasic: Rule = {
  id: 'auth.401.invalid-basic',
  level: 'MUST',
  requirement:
    'Well-formed Basic credentials with an unknown user or a wrong password are answered with 401.',
  refs: [seed('5', 'rule 2'), rfc(7617, '2'), rfc(9110, '15.5.2')],
  statuses: [401],
  needs: ['endpoints.*.schemes (basic)'],
};

export const invalidApikey: Rule = {
  id: 'auth.401.invalid-apikey',
  level: 'MUST',
  requirement: 'A well-formed API key the target does not know is answered with 401.',
  refs: [seed('5', 'rule 2'), rfc(9110, '15.5.2')],
  statuses: [401],
  needs: ['endpoints.*.schemes (apikey)'],
};

export const unacceptedScheme: Rule = {
  id: 'auth.401.unaccepted-scheme',
  level: 'MUST',
  requirement:
    'Credentials in a scheme the path does not accept (a known one, or an unregistered one) are answered with 401.',
  refs: [seed('5', 'rule 2'), rfc(9110, '11.6.1'), rfc(9110, '15.5.2')],
  statuses: [401],
  needs: ['endpoints.protected.schemes'],
};

export const thenValid: Rule = {
  id: 'auth.401.then-valid',
  level: 'MUST',
  requirement: 'After a 401, repeating the request with valid credentials answers 200.',
  refs: [seed('5', 'rule 2'), seed('7', '401'), rfc(9110, '15.5.2')],
  statuses: [401, 200],
  needs: ['endpoints.protected', 'identities.user'],
};

export const challengePresent: Rule = {
  id: 'auth.401.challenge',
  level: 'MUST',
  requirement:
    'Every 401 carries a WWW-Authenticate field that parses as a challenge list and names at least one scheme the path accepts.',
  refs: [rfc(9110, '15.5.2'), rfc(9110, '11.6.1'), rfc(6750, '3')],
  statuses: [401],
  needs: ['endpoints.protected'],
};

export const challengePerScheme: Rule = {
  id: 'auth.401.challenge-per-scheme',
  level: 'SHOULD',
  requirement: 'A 401 on a path that accepts several schemes carries one challenge for each of them.',
  refs: [rfc(9110, '11.6.1'), rfc(9110, '11.3')],
  statuses: [401],
  needs: ['endpoints.protected.schemes'],
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
