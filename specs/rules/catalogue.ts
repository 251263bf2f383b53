/**
 * The rule catalogue: every check the suite makes, as data (STYLE.md "A rule is a declared object").
 * The report, the docs page and the coverage test are computed from this list. Ids are stable names;
 * bump CATALOGUE_VERSION when a rule is added, removed or changes meaning.
 */
import { accessRules } from './access.ts';
import { basicBase64Rules } from './basic-base64.ts';
import { boundaryRules } from './boundaries.ts';
import { challengeRules } from './challenges.ts';
import { credentialGrammarRules } from './credential-grammar.ts';
import { credentialPlaceRules } from './credential-places.ts';
import { forbiddenRules } from './forbidden.ts';
import { fuzzRules } from './fuzz.ts';
import { hostFieldRules } from './host-field.ts';
import { jsonValueRules } from './json-values.ts';
import { jwtAttackRules } from './jwt-attacks.ts';
import { jwtClaimTypeRules } from './jwt-claim-types.ts';
import { jwtClaimRules } from './jwt-claims.ts';
import { malformedRules } from './malformed.ts';
import { methodRules } from './method.ts';
import { notFoundRules } from './not-found.ts';
import { notFoundMethodRules } from './not-found-methods.ts';
import { observedRules } from './observed.ts';
import { observedServerErrorRules } from './observed-server-error.ts';
import { orderRules } from './order.ts';
import { problemRules } from './problem.ts';
import { rateLimitRules } from './rate-limit.ts';
import { refusalRules } from './refusal.ts';
import { requestBodyRules } from './request-body.ts';
import { schemeGrammarRules } from './scheme-grammar.ts';
import { schemeRules } from './schemes.ts';
import { serverErrorRules } from './server-error.ts';
import { successRules } from './success.ts';
import type { Rule } from './types.ts';
import { unauthorizedRules } from './unauthorized.ts';
import { writeEffectRules } from './write-effect.ts';

export const CATALOGUE_VERSION = '1.8.0';

export const catalogue: readonly Rule[] = [
  ...successRules,
  ...writeEffectRules,
  ...unauthorizedRules,
  ...challengeRules,
  ...schemeRules,
  ...schemeGrammarRules,
  ...boundaryRules,
  ...credentialGrammarRules,
  ...credentialPlaceRules,
  ...basicBase64Rules,
  ...malformedRules,
  ...hostFieldRules,
  ...requestBodyRules,
  ...jsonValueRules,
  ...forbiddenRules,
  ...accessRules,
  ...notFoundRules,
  ...notFoundMethodRules,
  ...methodRules,
  ...refusalRules,
  ...rateLimitRules,
  ...serverErrorRules,
  ...problemRules,
  ...jwtClaimRules,
  ...jwtClaimTypeRules,
  ...orderRules,
  ...observedRules,
  ...observedServerErrorRules,
  // Fuzz and JWT attack rules (specs/rules/fuzz.ts, specs/rules/jwt-attacks.ts) are added below, one line each.
  ...fuzzRules,
  ...jwtAttackRules,
];

/** A rule by id; throws on an unknown id (a typo in a test is our bug). */
export function ruleById(id: string): Rule {
  const rule = catalogue.find((r) => r.id === id);
  if (!rule) throw new TypeError(`no rule ${id} in the catalogue`);
  return rule;
}
