/**
 * 200 for every documented success (seed §4 rules 1 and 2; RFC 9110 §15.3.1). A write's success status may be
 * declared otherwise (profile `collection.declaredStatuses`, `replaceMethod`): the rule then judges against the
 * declaration, and the report lists it as a deviation from the seed (specs/declaration/deviations.ts).
 */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

export const successPublic: Rule = {
  id: 'success.200.public',
  level: 'MUST',
  requirement:
    'GET on the public path without an Authorization header answers 200 with the resource in the body.',
  refs: [seed('4', 'GET /users'), seed('4', 'rule 1'), rfc(9110, '15.3.1')],
  statuses: [200],
  needs: ['endpoints.public'],
  requires: ['public'],
  impact: 'refusal',
  remedy:
    "Serve the public read without credentials: answer 200 with the resource whatever the request's Authorization holds.",
};

export const successProtected: Rule = {
  id: 'success.200.protected',
  level: 'MUST',
  requirement: 'GET on the protected path with valid credentials of each accepted scheme answers 200.',
  refs: [seed('4', 'GET /protected'), seed('5', 'rule 1'), rfc(9110, '15.3.1')],
  statuses: [200],
  needs: ['endpoints.protected', 'identities.user'],
  impact: 'refusal',
  remedy: 'Accept every valid credential in each scheme the path declares and answer 200 with the resource.',
};

export const successAdmin: Rule = {
  id: 'success.200.admin',
  level: 'MUST',
  requirement:
    'GET on the admin path with valid credentials of an identity holding the admin role answers 200.',
  refs: [seed('4', 'GET /admin'), seed('4', 'rule 2'), rfc(9110, '15.3.1')],
  statuses: [200],
  needs: ['endpoints.admin', 'identities.admin'],
  requires: ['admin-role'],
  impact: 'refusal',
  remedy: 'Answer 200 to an identity holding the admin role in each scheme the admin path declares.',
};

export const successPost: Rule = {
  id: 'success.200.post',
  level: 'MUST',
  requirement:
    'A POST that creates an item in a writable collection completes with 200 (not 201), or with the success status the profile declares (a deviation the report lists), with the content it implies.',
  refs: [seed('4', 'rule 2'), rfc(9110, '15.3.1')],
  statuses: [200],
  needs: ['endpoints.collection.sampleItem', 'endpoints.collection.writeSchemes'],
  requires: ['writes'],
  impact: 'status',
  remedy:
    "Answer a successful create with the declared success status (the seed's 200; 201 or 204 only where the profile declares it), with the body that status implies.",
};

export const successPut: Rule = {
  id: 'success.200.put',
  level: 'MUST',
  requirement:
    'A PUT (or the PATCH the profile declares) that replaces an existing item of a writable collection completes with 200, or the declared success status.',
  refs: [seed('4', 'rule 2'), rfc(9110, '15.3.1')],
  statuses: [200],
  needs: ['endpoints.collection.sampleItem', 'endpoints.collection.writeSchemes'],
  requires: ['writes'],
  impact: 'status',
  remedy:
    "Answer a successful replace with the declared success status (the seed's 200), with the body that status implies.",
};

export const successDelete: Rule = {
  id: 'success.200.delete',
  level: 'MUST',
  requirement:
    'A DELETE of an existing item of a writable collection completes with 200, or the declared success status (204: no content).',
  refs: [seed('4', 'rule 2'), rfc(9110, '15.3.1')],
  statuses: [200],
  needs: ['endpoints.collection.sampleItem', 'endpoints.collection.writeSchemes'],
  requires: ['writes'],
  impact: 'status',
  remedy:
    "Answer a successful delete with the declared success status (the seed's 200; 204 without content where declared).",
};

export const successRules: readonly Rule[] = [
  successPublic,
  successProtected,
  successAdmin,
  successPost,
  successPut,
  successDelete,
];
