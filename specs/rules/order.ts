/** What the target checks first when several conditions fail at once (docs/design.md "Order of checks"). */
import { rfc } from './refs.ts';
import type { Rule } from './types.ts';

export const orderOfChecks: Rule = {
  id: 'info.order-of-checks',
  level: 'INFO',
  requirement:
    'Reports which status wins when conditions conflict: an unknown path or unsupported method sent without, or with malformed, credentials.',
  refs: [rfc(9110, '15.5'), rfc(9110, '15.5.2')],
  statuses: [400, 401, 404, 405],
  needs: ['endpoints.missing', 'endpoints.methodNotAllowed'],
  impact: 'status',
  remedy: 'Either order is allowed; the report says which status wins.',
};

export const orderRules: readonly Rule[] = [orderOfChecks];
