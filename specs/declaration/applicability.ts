/**
 * Which rules apply to the interface a profile declares (issue #66; docs/design.md "Applicability"). A rule
 * whose `requires` the declaration rules out is not applicable: it is listed with the declaration that rules
 * it out, counted apart, never counted as skipped, never waived or baselined. What the seed asks of every
 * target (401 for missing credentials, a rate limit, §8) requires nothing and always applies.
 */
import type { Feature, Requirement, Rule } from '../rules/types.ts';
import type { Declaration } from './declaration.ts';

const SCHEME_TITLE: Readonly<Record<string, string>> = {
  bearer: 'Bearer',
  basic: 'Basic',
  apikey: 'an API key',
};

/** Why the declaration lacks `feature`, stated as what the profile declares. */
function absence(feature: Feature, d: Declaration): string {
  const taken = d.schemes.length ? d.schemes.join(', ') : 'none';
  switch (feature) {
    case 'bearer':
    case 'basic':
    case 'apikey':
      return `no endpoint takes ${SCHEME_TITLE[feature]} (schemes declared: ${taken})`;
    case 'public':
      return 'no public read is declared (endpoints.public)';
    case 'jwt':
      return d.schemes.includes('bearer')
        ? 'Bearer tokens are not declared as JWTs (no jwt in the profile)'
        : `no endpoint takes Bearer (schemes declared: ${taken})`;
    case 'jwt-issuer':
      return 'the JWT declaration names no issuer (jwt.issuer)';
    case 'jwt-audience':
      return 'the JWT declaration names no audience (jwt.audience)';
    case 'jwt-asymmetric':
      return `the JWS algorithm is symmetric (jwt.alg ${d.jwtAlg ?? 'unset'}): no public key to confuse`;
    case 'writes':
      return 'read-only: no writable collection (endpoints.collection) and no write method in methods';
    case 'admin-role':
      return 'no admin role is declared (endpoints.admin)';
    case 'write-role':
      return d.writer === 'any'
        ? 'every authenticated identity may write (endpoints.collection.writer "any")'
        : 'read-only: no write to refuse';
    case 'blocking':
      return 'no blocked client is declared (blocked.clients)';
    case 'closed-route':
      return 'no request closed to every client is declared (blocked.closed)';
    case 'fault':
      return 'no way to provoke a 500 is declared (fault)';
    case 'two-identities':
      return 'one identity is declared (identities.admin and identities.user are both needed)';
    case 'two-schemes':
      return `no endpoint takes two schemes (schemes declared: ${taken})`;
    case 'refused-two-schemes':
      return 'no request refused to the user (admin read, or write by another role) takes two schemes';
  }
}

function met(requirement: Requirement, d: Declaration): boolean {
  return typeof requirement === 'string'
    ? d.features.has(requirement)
    : requirement.some((f) => d.features.has(f));
}

/** Why `rule` does not apply to the declared interface, or undefined when it applies. */
export function notApplicableReason(rule: Pick<Rule, 'requires'>, d: Declaration): string | undefined {
  const unmet = (rule.requires ?? []).filter((r) => !met(r, d));
  if (unmet.length === 0) return undefined;
  const reasons = unmet.map((r) =>
    typeof r === 'string' ? absence(r, d) : r.map((f) => absence(f, d)).join(', nor '),
  );
  return [...new Set(reasons)].join('; ');
}

/** The rules of `catalogue` the declaration rules out, each with its reason, in catalogue order. */
export function notApplicable(
  catalogue: readonly Pick<Rule, 'id' | 'requires'>[],
  d: Declaration,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const rule of catalogue) {
    const reason = notApplicableReason(rule, d);
    if (reason !== undefined) out.set(rule.id, reason);
  }
  return out;
}
