/** Plans of the Authorization header rules (specs/rules/fuzz.ts, all but the fuzz.jwt.* ones). */
import fc from 'fast-check';
import { basicUserPass, CredentialMaker } from '../../profile/credential-maker.ts';
import type { Scheme } from '../../profile/types.ts';
import {
  fuzzBearerErrorCode,
  fuzzChallengeOn401,
  fuzzInvalidCredentialNo2xx,
  fuzzLegalVariants,
  fuzzMalformedStatus,
  fuzzNo5xx,
  fuzzPublicJunk,
  fuzzWrongCredentialStatus,
} from '../../rules/fuzz.ts';
import { junkAuthorizationCase } from '../arbitraries/junkAuthorizationCase.ts';
import { malformedAuthorizationCase } from '../arbitraries/malformedAuthorizationCase.ts';
import {
  type CanonicalCredential,
  respellingClass,
  validCredentialVariant,
} from '../arbitraries/validCredentialVariant.ts';
import { wrongCredentialCase } from '../arbitraries/wrongCredentialCase.ts';
import {
  bearerErrorCode,
  challengeOn401,
  noServerError,
  notSuccess,
  sameStatusAs,
  statusIn,
} from '../engine/judges.ts';
import { rateLimitReason } from '../engine/rate-limit.ts';
import { isKitUnavailable } from '../jwt/kit.ts';
import { mutationCase } from '../jwt/mutation.ts';
import { anyMutation } from '../jwt/mutations/anyMutation.ts';
import type { FuzzRequest } from '../request.ts';
import type { FuzzPlan, PlanContext } from './types.ts';

/** Junk headers, and mutated tokens too when the profile has a JWT to mutate (escalations stay on the protected path). */
function junkWithTokens(context: PlanContext): fc.Arbitrary<FuzzRequest> {
  const junk = junkAuthorizationCase();
  if (isKitUnavailable(context.kit)) return junk;
  const tokens = anyMutation(context.kit).map((m) => ({
    ...mutationCase(m),
    endpoint: 'protected' as const,
  }));
  return fc.oneof({ weight: 4, arbitrary: junk }, { weight: 1, arbitrary: tokens });
}

export const invalidCredentialNo2xxPlan: FuzzPlan = {
  rule: fuzzInvalidCredentialNo2xx,
  title: 'protected path with generated invalid credentials of every scheme → never 2xx',
  weight: 3,
  endpoint: 'protected',
  async prepare() {
    return { arbitrary: junkAuthorizationCase(), judge: notSuccess };
  },
};

export const no5xxPlan: FuzzPlan = {
  rule: fuzzNo5xx,
  title: 'protected path with generated junk, raw octets and mutated tokens → an HTTP answer below 500',
  weight: 3,
  endpoint: 'protected',
  async prepare(context) {
    return { arbitrary: junkWithTokens(context), judge: noServerError };
  },
};

export const challengeOn401Plan: FuzzPlan = {
  rule: fuzzChallengeOn401,
  title: 'protected path with generated bad credentials → every 401 carries a parseable WWW-Authenticate',
  weight: 2,
  endpoint: 'protected',
  async prepare() {
    return { arbitrary: junkAuthorizationCase(), judge: challengeOn401 };
  },
};

export const bearerErrorCodePlan: FuzzPlan = {
  rule: fuzzBearerErrorCode,
  title:
    'protected path with generated bad credentials and tokens → Bearer error codes of RFC 6750 with their status',
  weight: 1.5,
  endpoint: 'protected',
  async prepare(context) {
    const endpoint = context.profile.endpoints.protected;
    if (endpoint?.schemes && !endpoint.schemes.includes('bearer')) {
      return { skip: 'profile lacks bearer in endpoints.protected.schemes: no Bearer challenge to judge' };
    }
    return { arbitrary: junkWithTokens(context), judge: bearerErrorCode };
  },
};

export const malformedStatusPlan: FuzzPlan = {
  rule: fuzzMalformedStatus,
  title: 'protected path with generated malformed Authorization values → 400 or 401',
  weight: 3,
  endpoint: 'protected',
  async prepare(context) {
    return {
      arbitrary: malformedAuthorizationCase(CredentialMaker.for(context.profile).apikeyForm),
      judge: statusIn([400, 401], { invalidOverlongCredentials: [431] }),
    };
  },
};

export const wrongCredentialStatusPlan: FuzzPlan = {
  rule: fuzzWrongCredentialStatus,
  title: 'protected path with generated well-formed but wrong credentials → 401',
  weight: 2,
  endpoint: 'protected',
  async prepare(context) {
    return {
      arbitrary: wrongCredentialCase(CredentialMaker.for(context.profile).apikeyForm),
      judge: statusIn([401]),
    };
  },
};

/** The identity's credentials in canonical form, per scheme it has. */
function canonicalCredentials(
  context: PlanContext,
): { scheme: Scheme; canonical: CanonicalCredential; secret: string }[] {
  const identity = context.profile.identities.user ?? context.profile.identities.admin;
  const maker = CredentialMaker.for(context.profile);
  const out: { scheme: Scheme; canonical: CanonicalCredential; secret: string }[] = [];
  if (identity?.bearer)
    out.push({
      scheme: 'bearer',
      canonical: { scheme: maker.name('bearer'), credentials: identity.bearer },
      secret: identity.bearer,
    });
  if (identity?.basic) {
    const userPass = `${identity.basic.username}:${identity.basic.password}`;
    const credentials = basicUserPass(identity.basic.username, identity.basic.password);
    out.push({ scheme: 'basic', canonical: { scheme: maker.name('basic'), credentials }, secret: userPass });
  }
  // A key in the target's word form (profile apikeyScheme); a parameter form or a key alone has no token68 to respell.
  const { word, param } = maker.apikeyForm;
  if (identity?.apikey && word !== undefined && param === undefined)
    out.push({
      scheme: 'apikey',
      canonical: { scheme: word, credentials: identity.apikey },
      secret: identity.apikey,
    });
  return out;
}

export const legalVariantsPlan: FuzzPlan = {
  rule: fuzzLegalVariants,
  title: 'protected path with legal respellings of a valid credential → the status of its canonical form',
  weight: 1.5,
  endpoint: 'protected',
  async prepare(context) {
    const credentials = canonicalCredentials(context);
    if (credentials.length === 0)
      return { skip: 'profile lacks identities.user (or admin) credentials: no valid credential to respell' };
    const canonicalStatus: Record<string, number> = {};
    const canonicalOf: Record<string, CanonicalCredential> = {};
    const arbitraries: fc.Arbitrary<FuzzRequest>[] = [];
    for (const { scheme, canonical } of credentials) {
      const kind = `validCredentialVariant:${scheme}`;
      const outcome = await context.probe(
        { kind, authorization: [`${canonical.scheme} ${canonical.credentials}`] },
        'protected',
      );
      const limited = rateLimitReason(outcome);
      if (limited !== undefined)
        return { skip: `the canonical ${scheme} credential was rate limited (${limited})` };
      if (outcome.kind !== 'response')
        return { skip: `the canonical ${scheme} credential got no response (${outcome.error})` };
      canonicalStatus[kind] = outcome.status;
      canonicalOf[kind] = canonical;
      arbitraries.push(
        validCredentialVariant(canonical).map((value): FuzzRequest => ({ kind, authorization: [value] })),
      );
    }
    return {
      arbitrary: fc.oneof(...arbitraries),
      judge: sameStatusAs(canonicalStatus),
      secrets: credentials.map((c) => c.secret),
      // One failing class per respelling (several spaces, scheme case, whitespace around), not per scheme only.
      classify: (request) => {
        const canonical = canonicalOf[request.kind];
        const value = request.authorization[0];
        return canonical === undefined || value === undefined
          ? request.kind
          : `${request.kind}: ${respellingClass(canonical, value)}`;
      },
    };
  },
};

export const publicJunkPlan: FuzzPlan = {
  rule: fuzzPublicJunk,
  title: 'public path with generated junk Authorization values → still an answer below 500',
  weight: 2,
  endpoint: 'public',
  async prepare(context) {
    const baseline = await context.probe({ kind: 'baseline', authorization: [] }, 'public');
    if (baseline.kind !== 'response' || baseline.status !== 200) {
      return {
        skip: `the public path answered ${baseline.kind === 'response' ? baseline.status : 'nothing'} without Authorization, not 200: no 200 to keep`,
      };
    }
    return { arbitrary: junkAuthorizationCase(), judge: noServerError };
  },
};

export const authorizationPlans: readonly FuzzPlan[] = [
  invalidCredentialNo2xxPlan,
  no5xxPlan,
  challengeOn401Plan,
  bearerErrorCodePlan,
  malformedStatusPlan,
  wrongCredentialStatusPlan,
  legalVariantsPlan,
  publicJunkPlan,
];
