/** 200 for every documented success (seed §4 rules 1 and 2; RFC 9110 §15.3.1). */
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
};

export const successProtected: Rule = {
  id: 'success.200.protected',
  level: 'MUST',
  requirement: 'GET on the protected path with valid credentials of each accepted scheme answers 200.',
  refs: [seed('4', 'GET /protected'), seed('5', 'rule 1'), rfc(9110, '15.3.1')],
  statuses: [200],
  needs: ['endpoints.protected', 'identities.user'],
};

export const successAdmin: Rule = {
  id: 'success.200.admin',
  level: 'MUST',
  requirement:
    'GET on the admin path with valid credentials of an identity holding the admin role answers 200.',
  refs: [seed('4', 'GET /admin'), seed('4', 'rule 2'), rfc(9110, '15.3.1')],
  statuses: [200],
  needs: ['endpoints.admin', 'identities.admin'],
};

export const successPost: Rule = {
  id: 'success.200.post',
  level: 'MUST',
  requirement: 'A POST that creates an item in a writable collection completes with 200 (not 201).',
  refs: [seed('4', 'rule 2'), rfc(9110, '15.3.1')],
  statuses: [200],
  needs: ['endpoints.collection.sampleItem', 'endpoints.collection.writeSchemes'],
};

export const successPut: Rule = {
  id: 'success.200.put',
  level: 'MUST',
  requirement: 'A PUT that replaces an existing item of a writable collection completes with 200.',
  refs: [seed('4', 'rule 2'), rfc(9110, '15.3.1')],
  statuses: [200],
  needs: ['endpoints.collection.sampleItem', 'endpoints.collection.writeSchemes'],
};

export const successDelete: Rule = {
  id: 'success.200.delete',
  level: 'MUST',
  requirement: 'A DELETE of an existing item of a writable collection completes with 200.',
  refs: [seed('4', 'rule 2'), rfc(9110, '15.3.1')],
  statuses: [200],
  needs: ['endpoints.collection.sampleItem', 'endpoints.collection.writeSchemes'],
};

export const successRules: readonly Rule[] = [
  successPublic,
  successProtected,
  successAdmin,
  successPost,
  successPut,
  successDelete,
];
