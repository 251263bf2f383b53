/** Scheme names are case-insensitive (RFC 9110 §11.1). */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

export const schemeCaseInsensitive: Rule = {
  id: 'auth.scheme.case-insensitive',
  level: 'MUST',
  requirement:
    'The scheme name is matched case-insensitively: "bearer", "BASIC", "aPiKeY" work like their canonical form; where the key is sent as an auth-param, so is the parameter name, in another case at every position (RFC 9110 §11.2; RFC 7617 §2 "both scheme and parameter names are matched case-insensitively").',
  refs: [rfc(9110, '11.1'), rfc(9110, '11.2'), rfc(7617, '2'), seed('5')],
  statuses: [200],
  needs: ['endpoints.*.schemes', 'identities.admin'],
  impact: 'refusal',
  remedy:
    'Compare the scheme word (and a key\'s parameter name) without regard to letter case: "bearer" and "BASIC" are the canonical schemes.',
};

export const schemeRules: readonly Rule[] = [schemeCaseInsensitive];
