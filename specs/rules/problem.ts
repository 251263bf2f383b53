/** problem+json bodies, when the target uses them (RFC 9457). */
import { rfc } from './refs.ts';
import type { Rule } from './types.ts';

/**
 * MUST, as the cited sentence is: RFC 9457 §3.1.2 "Generators MUST use the same status code in the actual
 * HTTP response". The seed leaves error bodies "not shown", so using problem+json at all is the target's
 * choice — the rule judges only bodies the target labels application/problem+json, and only a `status`
 * member that is present; once it is, the MUST binds.
 */
export const problemStatus: Rule = {
  id: 'problem.status-matches',
  level: 'MUST',
  requirement:
    'An application/problem+json error body is a JSON object whose "status", when present, equals the HTTP status.',
  refs: [rfc(9457, '3.1.2'), rfc(9457, '3')],
  statuses: [400, 401, 403, 404, 405],
  needs: ['endpoints.protected'],
  impact: 'status',
  remedy: "Set a problem+json body's status member from the answer's own status.",
};

export const problemRules: readonly Rule[] = [problemStatus];
