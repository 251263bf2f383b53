/**
 * An operation's security as the document states it (OpenAPI 3.1 §4.8.30, 3.0 §4.7.36), compiled into rules
 * the pipeline's stages read: the Security Requirement Objects of a list are alternatives (any one suffices);
 * the schemes inside one are all required at once; an empty object, or no requirement at all, makes the
 * operation public; an operation's own `security` (even `[]`) replaces the document's (init's
 * `requirementsOf`, cli/init/security.ts). Each alternative carries a rule of its own whose `scopes` are the
 * names it lists, so the authorization stage (mock/pipeline/authorization.ts) decides its 403 unchanged.
 */
import type { Scheme } from '../auth/types.ts';
import type { AccessRule, Operation } from '../routing/router.ts';
import { ADMIN_ROLE } from './identities.ts';
import type { DocumentScheme } from './schemes.ts';

export interface Alternative {
  readonly schemes: readonly DocumentScheme[];
  /** The scopes (oauth2) or roles (other schemes, OpenAPI 3.1) it lists: all are needed. */
  readonly needs: readonly string[];
  /** The rule the authorization stage reads once this alternative's credentials are verified. */
  readonly rule: AccessRule;
}

export interface DocumentRule extends AccessRule {
  readonly alternatives: readonly Alternative[];
  /** Every scheme some alternative names, once each, in the document's order. */
  readonly checked: readonly DocumentScheme[];
}

const PROFILE_SCHEME: Readonly<Record<DocumentScheme['kind'], Scheme | undefined>> = {
  jwt: 'bearer',
  basic: 'basic',
  key: 'apikey',
  unsupported: undefined,
};

type Json = Record<string, unknown>;

/** `extra`: what the handler needs of the operation, carried by its rule and by each alternative's rule. */
export function compileAccess<X extends object>(
  requirements: readonly Json[] | undefined,
  schemes: ReadonlyMap<string, DocumentScheme>,
  operation: Operation,
  extra: X,
  /** An administrator's operation (init's `adminScore`): each alternative also asks for ADMIN_ROLE. */
  admin = false,
): DocumentRule & X {
  const list = requirements ?? [];
  const isPublic = list.length === 0 || list.some((r) => Object.keys(r).length === 0);
  const alternatives: Alternative[] = [];
  const checked: DocumentScheme[] = [];
  for (const requirement of list) {
    const names = Object.keys(requirement);
    if (names.length === 0) continue;
    const used = names.map((name) => schemes.get(name));
    // A scheme the document does not define can never be met: the alternative is left out.
    if (used.some((s) => s === undefined || s.kind === 'unsupported')) continue;
    const defined = used as DocumentScheme[];
    // A key that only modifies another credential (a Sudo or one-time password header) proves no one alone.
    if (defined.every((s) => s.modifier)) continue;
    for (const s of defined) if (!checked.includes(s)) checked.push(s);
    const needs = [
      ...new Set(names.flatMap((n) => (Array.isArray(requirement[n]) ? requirement[n] : []))),
    ].map(String);
    alternatives.push({
      schemes: defined,
      needs,
      rule: { ...ruleOf(defined, needs, operation, false, admin), ...extra },
    });
  }
  return {
    ...ruleOf(checked, [], operation, isPublic),
    ...extra,
    alternatives: isPublic ? [] : alternatives,
    checked: isPublic ? [] : checked,
  };
}

function ruleOf(
  schemes: readonly DocumentScheme[],
  scopes: readonly string[],
  operation: Operation,
  isPublic: boolean,
  admin = false,
): AccessRule {
  const profile = [...new Set(schemes.map((s) => PROFILE_SCHEME[s.kind]))].filter(
    (s): s is Scheme => s !== undefined,
  );
  return {
    public: isPublic,
    closed: false,
    schemes: profile,
    roles: admin ? [ADMIN_ROLE] : [],
    scopes,
    challenges: [...new Set(schemes.map((s) => s.challenge).filter((c): c is string => c !== undefined))],
    operation,
  };
}
