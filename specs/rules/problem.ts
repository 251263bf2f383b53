/** problem+json bodies, when the target uses them (RFC 9457). */
import { rfc } from './refs.ts';
import type { Rule } from './types.ts';

/**
 * RFC 9457 §3.1.2 says generators MUST use the same status in the HTTP response; the seed leaves error
 * bodies "not shown", so using problem+json at all is the target's choice and the rule is a SHOULD.
 */
export const problemStatus: Rule = {
  id: 'problem.status-matches',
  level: 'SHOULD',
  requirement:
    'An application/problem+json error body is a JSON object whose "status", when present, equals the HTTP status.',
  refs: [rfc(9457, '3.1.2'), rfc(9457, '3')],
  statuses: [400, 401, 403, 404, 405],
  needs: ['endpoints.protected'],
};

export const problemRules: readonly Rule[] = [problemStatus];
