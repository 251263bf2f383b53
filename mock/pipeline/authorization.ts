/**
 * Stage 6, authorization (403). The identity is known; the rule's roles (any one) and scopes (all) decide.
 * Seed §7: authenticating again does not change the result — the answer depends only on the identity's
 * roles and scopes, so the same or fresh valid credentials for it get the same 403.
 */

import { challenge } from '../http/challenge.ts';
import { problem } from '../http/problem.ts';
import { missing, type Stage } from './exchange.ts';

const NONE: readonly string[] = [];

export function authorizationStage(realm: string): Stage {
  return (exchange) => {
    const rule = exchange.rule ?? missing('rule');
    if (rule.public) return undefined;
    const identity = exchange.identity ?? missing('identity');
    const lacksRole = rule.roles.length > 0 && !rule.roles.some((role) => identity.roles.includes(role));
    const lacksScopes =
      rule.scopes.length === 0 ? NONE : rule.scopes.filter((scope) => !identity.scopes.includes(scope));
    if (!lacksRole && lacksScopes.length === 0) return undefined;

    const needs: string[] = [];
    if (lacksRole)
      needs.push(`${rule.roles.length > 1 ? 'one of the roles' : 'the role'} ${rule.roles.join(', ')}`);
    if (lacksScopes.length > 0)
      needs.push(`the scope${lacksScopes.length > 1 ? 's' : ''} ${lacksScopes.join(' ')}`);
    const detail = `The authenticated identity lacks ${needs.join(' and ')}.`;
    exchange.outcome = lacksRole ? 'insufficient_role' : 'insufficient_scope';
    exchange.outcomeReason = detail;
    // RFC 6750 §3.1 insufficient_scope: "SHOULD respond with the HTTP 403 (Forbidden) status code and MAY
    // include the scope attribute with the scope necessary to access the protected resource."
    const headers =
      identity.scheme === 'bearer'
        ? {
            'www-authenticate': challenge('bearer', realm, {
              error: 'insufficient_scope',
              description: detail,
              ...(rule.scopes.length > 0 ? { scope: rule.scopes.join(' ') } : {}),
            }),
          }
        : undefined;
    return problem('insufficient-permissions', detail, headers, {
      ...(lacksRole ? { requiredRoles: rule.roles } : {}),
      ...(lacksScopes.length > 0 ? { requiredScopes: rule.scopes } : {}),
    });
  };
}
