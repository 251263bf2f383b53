/**
 * The JWT attack catalogue: each class of forged or damaged token a Bearer target must refuse, checked as a
 * property over every variant of the class (specs/fuzz/jwt/mutations/). The single-token checks of
 * expiry, audience, issuer and crit are jwt.claims.* (jwt-claims.ts); their variants also feed
 * fuzz.jwt.mutation.no-2xx.
 */
import { rfc } from './refs.ts';
import type { Rule } from './types.ts';

const NEEDS_TOKEN = 'identities.user.bearer (a JWS) or jwt + identities.user.jwtClaims';

export const attackAlgNone: Rule = {
  id: 'jwt.attack.alg-none',
  level: 'MUST',
  requirement:
    'Unsecured tokens — alg "none" in any letter case, with an empty, kept or random signature, claims kept or escalated — are never answered with 2xx.',
  refs: [rfc(7518, '3.6'), rfc(8725, '3.1'), rfc(8725, '2.1')],
  statuses: [401],
  needs: [NEEDS_TOKEN],
  requires: ['jwt'],
  impact: 'access',
  remedy: 'Pin the accepted algorithms in the verifier; refuse alg "none" in any letter case.',
};

export const attackSignature: Rule = {
  id: 'jwt.attack.signature',
  level: 'MUST',
  requirement:
    'A valid token with its signature stripped, removed, truncated, bit-flipped or zeroed is never answered with 2xx.',
  refs: [rfc(7515, '5.2'), rfc(8725, '3.4')],
  statuses: [401],
  needs: [NEEDS_TOKEN],
  requires: ['jwt'],
  impact: 'access',
  remedy: 'Verify the signature of every token; refuse one that is missing, truncated or altered.',
};

export const attackPayloadTamper: Rule = {
  id: 'jwt.attack.payload-tamper',
  level: 'MUST',
  requirement:
    'Claims edited without re-signing (role escalated, sub changed, exp extended, claim added, re-serialised) are never answered with 2xx, on the protected path or the admin path.',
  refs: [rfc(7515, '5.2'), rfc(7515, '5.1'), rfc(7519, '7.2')],
  statuses: [401],
  needs: [NEEDS_TOKEN],
  requires: ['jwt'],
  impact: 'access',
  remedy: 'Verify the signature over the token as sent before reading any claim.',
};

export const attackKeyConfusion: Rule = {
  id: 'jwt.attack.key-confusion',
  level: 'MUST',
  requirement:
    "Tokens MAC'd with HS256/384/512 keyed by the target's public key (SPKI PEM with or without newline, DER, PKCS#1 PEM, JWK text) are never answered with 2xx.",
  refs: [rfc(8725, '2.1'), rfc(8725, '3.1'), rfc(7515, '4.1.1')],
  statuses: [401],
  needs: [NEEDS_TOKEN, 'jwt.publicJwk'],
  requires: ['jwt-asymmetric'],
  impact: 'access',
  remedy: "Pin the algorithm to the key's type: a public key never serves as an HMAC secret.",
};

export const attackEcdsaZero: Rule = {
  id: 'jwt.attack.ecdsa-zero-signature',
  level: 'MUST',
  requirement:
    'Tokens with an ES256/384/512 signature of r = s = 0 (CVE-2022-21449), raw or DER, are never answered with 2xx.',
  refs: [
    rfc(7518, '3.4'),
    rfc(7515, '5.2'),
    {
      spec: 'CVE-2022-21449',
      section: 'psychic signatures',
      url: 'https://nvd.nist.gov/vuln/detail/CVE-2022-21449',
    },
  ],
  statuses: [401],
  needs: [NEEDS_TOKEN],
  requires: ['jwt'],
  impact: 'access',
  remedy: 'Use an ECDSA verifier that refuses r = 0 or s = 0 (CVE-2022-21449: update the runtime).',
};

export const attackKidInjection: Rule = {
  id: 'jwt.attack.kid-injection',
  level: 'MUST',
  requirement:
    "Tokens whose kid is a path traversal, SQL or shell fragment or empty, MAC'd with HS256 under the secret such a lookup yields, are never answered with 2xx.",
  refs: [rfc(8725, '3.10'), rfc(7515, '4.1.4'), rfc(8725, '3.1')],
  statuses: [401],
  needs: [NEEDS_TOKEN],
  requires: ['jwt'],
  impact: 'access',
  remedy: 'Look kid up in a fixed key set; never build a file path, query or command from it.',
};

export const attackEmbeddedKey: Rule = {
  id: 'jwt.attack.embedded-key',
  level: 'MUST',
  requirement:
    "Tokens signed with an attacker's key that the header offers (embedded jwk, jku or x5u URL) are never answered with 2xx.",
  refs: [rfc(7515, '4.1.3'), rfc(7515, '4.1.2'), rfc(7515, '4.1.5'), rfc(8725, '3.10')],
  statuses: [401],
  needs: [NEEDS_TOKEN],
  requires: ['jwt'],
  impact: 'access',
  remedy: "Verify with the target's own keys only; ignore jwk, jku and x5u in the token's header.",
};

export const attackStructure: Rule = {
  id: 'jwt.attack.structure',
  level: 'MUST',
  requirement:
    'Tokens with extra or missing segments, characters outside base64url, or a header or claims set that is not a JSON object are never answered with 2xx.',
  refs: [rfc(7515, '7.1'), rfc(7515, '5.2'), rfc(7519, '7.2')],
  statuses: [400, 401],
  needs: [NEEDS_TOKEN],
  requires: ['jwt'],
  impact: 'access',
  remedy: 'Refuse a token that is not exactly three base64url segments with JSON-object header and claims.',
};

export const attackMissingIssAud: Rule = {
  id: 'jwt.attack.missing-iss-aud',
  level: 'SHOULD',
  requirement:
    'Validly signed tokens without iss, aud or both are refused by a target whose profile names its issuer and audience.',
  refs: [rfc(8725, '3.9'), rfc(8725, '3.8')],
  statuses: [401],
  needs: ['jwt (signing material)', 'jwt.issuer or jwt.audience', 'identities.user.jwtClaims'],
  requires: ['jwt', ['jwt-issuer', 'jwt-audience']],
  impact: 'access',
  remedy: 'Require iss and aud to be present (not only right when present).',
};

export const attackIatFuture: Rule = {
  id: 'jwt.attack.iat-future',
  level: 'INFO',
  requirement:
    'Reports whether validly signed tokens "issued" a day to ten years in the future are accepted (no RFC forbids it).',
  refs: [rfc(7519, '4.1.6'), rfc(8725, '3.10')],
  statuses: [200, 401],
  needs: ['jwt (signing material)', 'identities.user.jwtClaims'],
  requires: ['jwt'],
  impact: 'status',
  remedy: 'Either answer is allowed; the report says what the target does.',
};

export const jwtAttackRules: readonly Rule[] = [
  attackAlgNone,
  attackSignature,
  attackPayloadTamper,
  attackKeyConfusion,
  attackEcdsaZero,
  attackKidInjection,
  attackEmbeddedKey,
  attackStructure,
  attackMissingIssAud,
  attackIatFuture,
];
