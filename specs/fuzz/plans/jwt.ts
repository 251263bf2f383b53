/** Plans of the JWT rules: fuzz.jwt.* (every mutation class at once) and the jwt.attack.* catalogue (one class each). */
import type fc from 'fast-check';
import { fuzzJwtEscalation, fuzzJwtMutation } from '../../rules/fuzz.ts';
import {
  attackAlgNone,
  attackEcdsaZero,
  attackEmbeddedKey,
  attackIatFuture,
  attackKeyConfusion,
  attackKidInjection,
  attackMissingIssAud,
  attackPayloadTamper,
  attackSignature,
  attackStructure,
} from '../../rules/jwt-attacks.ts';
import type { Rule } from '../../rules/types.ts';
import { notSuccess } from '../engine/judges.ts';
import { PASS } from '../engine/verdict.ts';
import { isKitUnavailable, type JwtKit } from '../jwt/kit.ts';
import { isUnavailable, type JwtMutation, type MutationSource, mutationCase } from '../jwt/mutation.ts';
import { algNoneMutation, algNoneWhole } from '../jwt/mutations/algNone.ts';
import { anyMutation } from '../jwt/mutations/anyMutation.ts';
import { ecdsaZeroSignatureMutation } from '../jwt/mutations/ecdsaZeroSignature.ts';
import { embeddedKeyMutation } from '../jwt/mutations/embeddedKey.ts';
import { iatFutureMutation } from '../jwt/mutations/iatFuture.ts';
import { keyConfusionMutation } from '../jwt/mutations/keyConfusion.ts';
import { kidInjectionMutation, kidInjectionWhole } from '../jwt/mutations/kidInjection.ts';
import { malformedStructureMutation, malformedStructureWhole } from '../jwt/mutations/malformedStructure.ts';
import { missingIssuerAudienceMutation } from '../jwt/mutations/missingIssuerAudience.ts';
import { payloadTamperMutation } from '../jwt/mutations/payloadTamper.ts';
import { signatureMutation } from '../jwt/mutations/signatureDamage.ts';
import type { FuzzRequest } from '../request.ts';
import type { FuzzPlan, PlanContext, PlanSkip, PreparedPlan } from './types.ts';

/** Escalated cases go to the admin path when the profile has one, else stay on the protected path. */
function toRequest(context: PlanContext, m: JwtMutation): FuzzRequest {
  const request = mutationCase(m);
  return context.profile.endpoints.admin !== undefined || request.endpoint === undefined
    ? request
    : { ...request, endpoint: 'protected' as const };
}

function toRequests(context: PlanContext, mutations: fc.Arbitrary<JwtMutation>): fc.Arbitrary<FuzzRequest> {
  return mutations.map((m) => toRequest(context, m));
}

function prepared(
  context: PlanContext,
  kit: JwtKit,
  source: MutationSource,
  whole?: readonly JwtMutation[],
): PreparedPlan | PlanSkip {
  if (isUnavailable(source)) return { skip: source.unavailable };
  return {
    arbitrary: toRequests(context, source),
    judge: notSuccess,
    secrets: kit.secrets,
    ...(whole === undefined ? {} : { whole: whole.map((m) => toRequest(context, m)) }),
  };
}

/**
 * A jwt.attack.* plan: `build` gives the mutation class from the kit; `whole`, when the class has a finite
 * catalogue of a few dozen tokens, every one of them, sent before the class is sampled (engine/whole.ts).
 */
function attackPlan(
  rule: Rule,
  title: string,
  build: (kit: JwtKit) => MutationSource,
  weight = 0.3,
  whole?: (kit: JwtKit) => readonly JwtMutation[],
): FuzzPlan {
  return {
    rule,
    title,
    weight,
    endpoint: 'protected',
    async prepare(context) {
      if (isKitUnavailable(context.kit)) return { skip: context.kit.unavailable };
      return prepared(context, context.kit, build(context.kit), whole?.(context.kit));
    },
  };
}

export const jwtMutationPlan: FuzzPlan = {
  rule: fuzzJwtMutation,
  title: 'protected path with generated mutations of a valid token → never 2xx',
  weight: 2,
  endpoint: 'protected',
  async prepare(context) {
    if (isKitUnavailable(context.kit)) return { skip: context.kit.unavailable };
    return prepared(context, context.kit, anyMutation(context.kit));
  },
};

export const jwtEscalationPlan: FuzzPlan = {
  rule: fuzzJwtEscalation,
  title: 'admin path with user tokens forged into admin tokens → never 2xx',
  weight: 1,
  endpoint: 'admin',
  async prepare(context) {
    if (isKitUnavailable(context.kit)) return { skip: context.kit.unavailable };
    return prepared(context, context.kit, anyMutation(context.kit, true));
  },
};

/** INFO: counts what the target accepted; never fails. */
export const iatFuturePlan: FuzzPlan = {
  rule: attackIatFuture,
  title: 'protected path with validly signed tokens issued in the future → reported as accepted or refused',
  weight: 0.2,
  endpoint: 'protected',
  async prepare(context) {
    if (isKitUnavailable(context.kit)) return { skip: context.kit.unavailable };
    const source = iatFutureMutation(context.kit);
    if (isUnavailable(source)) return { skip: source.unavailable };
    let sent = 0;
    let accepted = 0;
    return {
      arbitrary: toRequests(context, source),
      judge: (_request, outcome) => {
        sent++;
        if (outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 300) accepted++;
        return PASS;
      },
      secrets: context.kit.secrets,
      observation: () =>
        accepted === 0
          ? `refused all ${sent} validly signed tokens whose iat lies a day to ten years ahead`
          : `accepted ${accepted} of ${sent} validly signed tokens whose iat lies a day to ten years ahead`,
    };
  },
};

export const jwtPlans: readonly FuzzPlan[] = [
  jwtMutationPlan,
  jwtEscalationPlan,
  attackPlan(
    attackAlgNone,
    'Bearer tokens with alg none in any letter case → never 2xx',
    (kit) => algNoneMutation(kit),
    undefined,
    algNoneWhole,
  ),
  attackPlan(
    attackSignature,
    'Bearer tokens with a stripped, truncated, flipped or zeroed signature → never 2xx',
    (kit) => signatureMutation(kit),
  ),
  attackPlan(attackPayloadTamper, 'Bearer tokens with claims edited after signing → never 2xx', (kit) =>
    payloadTamperMutation(kit),
  ),
  attackPlan(
    attackKeyConfusion,
    "Bearer tokens MAC'd with the target's public key as HMAC secret → never 2xx",
    (kit) => keyConfusionMutation(kit),
  ),
  attackPlan(attackEcdsaZero, 'Bearer tokens with an ECDSA signature r = s = 0 → never 2xx', (kit) =>
    ecdsaZeroSignatureMutation(kit),
  ),
  attackPlan(
    attackKidInjection,
    'Bearer tokens with an injected kid and a guessable HMAC secret → never 2xx',
    (kit) => kidInjectionMutation(kit),
    undefined,
    kidInjectionWhole,
  ),
  attackPlan(
    attackEmbeddedKey,
    "Bearer tokens signed with an attacker's key offered by jwk, jku or x5u → never 2xx",
    (kit) => embeddedKeyMutation(kit),
  ),
  attackPlan(
    attackStructure,
    'Bearer tokens with broken JWS structure → never 2xx',
    (kit) => malformedStructureMutation(kit),
    undefined,
    malformedStructureWhole,
  ),
  attackPlan(
    attackMissingIssAud,
    'Bearer tokens validly signed without iss or aud → refused',
    (kit) => missingIssuerAudienceMutation(kit),
    0.2,
  ),
  iatFuturePlan,
];
