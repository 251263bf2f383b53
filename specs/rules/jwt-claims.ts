/**
 * JWT validation a Bearer target must perform on tokens the suite mints from the profile's signing
 * material (RFC 7519, RFC 7515, RFC 8725). The attack catalogue (tampering, kid/jku tricks, alg spellings)
 * lives in jwt-attacks.ts under `jwt.attack.*`.
 */
import { rfc } from './refs.ts';
import type { Rule } from './types.ts';

export const jwtValid: Rule = {
  id: 'jwt.claims.valid-accepted',
  level: 'MUST',
  requirement:
    "A token freshly minted with the profile's key, issuer and audience is accepted (200) on the protected path.",
  refs: [rfc(7519, '7.2'), rfc(6750, '2.1')],
  statuses: [200],
  needs: ['jwt', 'identities.user.jwtClaims', 'endpoints.*.schemes (bearer)'],
  requires: ['jwt'],
  impact: 'refusal',
  remedy: 'Accept a token signed with the declared key, issuer and audience, within its lifetime.',
};

export const jwtExpired: Rule = {
  id: 'jwt.claims.exp',
  level: 'MUST',
  requirement: 'A token whose exp lies in the past (beyond the leeway) is refused with 401.',
  refs: [rfc(7519, '4.1.4'), rfc(6750, '3.1')],
  statuses: [401],
  needs: ['jwt', 'identities.user.jwtClaims'],
  requires: ['jwt'],
  impact: 'access',
  remedy:
    'Check exp on every token (with at most a few minutes of leeway) and refuse an expired one with 401.',
};

export const jwtNotYetValid: Rule = {
  id: 'jwt.claims.nbf',
  level: 'MUST',
  requirement: 'A token whose nbf lies in the future (beyond the leeway) is refused with 401.',
  refs: [rfc(7519, '4.1.5'), rfc(6750, '3.1')],
  statuses: [401],
  needs: ['jwt', 'identities.user.jwtClaims'],
  requires: ['jwt'],
  impact: 'access',
  remedy:
    'Check nbf on every token (with at most a few minutes of leeway) and refuse a token not yet valid with 401.',
};

export const jwtAudience: Rule = {
  id: 'jwt.claims.aud',
  level: 'MUST',
  requirement: 'A token whose aud does not name the target is refused with 401.',
  refs: [rfc(7519, '4.1.3'), rfc(8725, '3.9')],
  statuses: [401],
  needs: ['jwt.audience', 'identities.user.jwtClaims'],
  requires: ['jwt-audience'],
  impact: 'access',
  remedy: 'Require aud to name the target and refuse other audiences with 401.',
};

export const jwtIssuer: Rule = {
  id: 'jwt.claims.iss',
  level: 'MUST',
  requirement: 'A token whose iss is not the issuer the target trusts is refused with 401.',
  refs: [rfc(8725, '3.8'), rfc(7519, '4.1.1')],
  statuses: [401],
  needs: ['jwt.issuer', 'identities.user.jwtClaims'],
  requires: ['jwt-issuer'],
  impact: 'access',
  remedy: 'Require iss to be the trusted issuer and refuse others with 401.',
};

export const jwtCrit: Rule = {
  id: 'jwt.claims.crit-unknown',
  level: 'MUST',
  requirement:
    'A token whose crit header names an extension the target does not understand is refused with 401.',
  refs: [rfc(7515, '4.1.11'), rfc(8725, '3.3')],
  statuses: [401],
  needs: ['jwt', 'identities.user.jwtClaims'],
  requires: ['jwt'],
  impact: 'access',
  remedy:
    'Refuse a token whose crit header names an extension the verifier does not implement (RFC 7515 §4.1.11).',
};

export const jwtAlgNone: Rule = {
  id: 'jwt.alg.none',
  level: 'MUST',
  requirement: 'An unsecured token (alg "none", empty signature) is refused with 401.',
  refs: [rfc(8725, '2.1'), rfc(8725, '3.1'), rfc(7519, '6')],
  statuses: [401],
  needs: ['jwt', 'identities.user.jwtClaims'],
  requires: ['jwt'],
  impact: 'access',
  remedy:
    'Pin the accepted algorithms (never "none") in the verifier\'s options instead of reading alg from the token.',
};

export const jwtKeyConfusion: Rule = {
  id: 'jwt.alg.key-confusion',
  level: 'MUST',
  requirement: "A token signed with HS256 keyed by the target's public key is refused with 401.",
  refs: [rfc(8725, '2.1'), rfc(8725, '3.1'), rfc(7515, '4.1.1')],
  statuses: [401],
  needs: ['jwt.publicJwk', 'identities.user.jwtClaims'],
  requires: ['jwt-asymmetric'],
  impact: 'access',
  remedy: "Pin the algorithm to the key's type: a public RSA or EC key never verifies an HS* MAC.",
};

/**
 * RFC 7519 §4.1.4–§4.1.6: the value of exp, nbf and iat "MUST be a number containing a NumericDate value"
 * (§2: a JSON numeric value). Each wrong type carries a time the token must be refused for — exp an hour past
 * the leeway, nbf an hour beyond it (§4.1.4 "MUST NOT be accepted for processing", §4.1.5 likewise) — so a
 * verifier that reads the value as its time refuses it as expired, one that refuses the type refuses it, and
 * only one that skips the check accepts it (issue #68). A wrong type carrying a valid time is leniency, reported
 * by jwt.claims.wrong-type-lenient (jwt-claim-types.ts). A boolean nbf is left out: no boolean reads as a future time.
 * A non-string iss (§4.1.1: "a case-sensitive string") or a numeric aud (§4.1.3: a string or an array of
 * strings) names no issuer and no audience, so it is a wrong one (jwt.claims.iss, jwt.claims.aud). `sub` is left
 * out: §4.1.2 has no BCP 14 keyword, and a target may not use it.
 */
export const jwtWrongType: Rule = {
  id: 'jwt.claims.wrong-type',
  level: 'MUST',
  requirement:
    'A validly signed token whose exp is an expired time or whose nbf is a future time written as a string, array, object or boolean (not a NumericDate), whose iss is not a string (when the profile names an issuer) or whose aud is a number (when it names an audience) is refused with 401.',
  refs: [
    rfc(7519, '2'),
    rfc(7519, '4.1.4'),
    rfc(7519, '4.1.5'),
    rfc(7519, '4.1.1'),
    rfc(7519, '4.1.3'),
    rfc(6750, '3.1'),
  ],
  statuses: [401],
  needs: ['jwt', 'identities.user.jwtClaims'],
  requires: ['jwt'],
  impact: 'access',
  remedy:
    'Refuse a token whose registered claims are not of their JSON type (NumericDate, string), so a mistyped claim never disables its check.',
};

export const jwtClaimRules: readonly Rule[] = [
  jwtValid,
  jwtExpired,
  jwtNotYetValid,
  jwtAudience,
  jwtIssuer,
  jwtCrit,
  jwtAlgNone,
  jwtKeyConfusion,
  jwtWrongType,
];
