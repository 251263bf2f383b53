/**
 * Properties the Authorization fuzzer checks (specs/fuzz/, docs/fuzzing.md). Each is judged over generated
 * inputs — valid… and invalid… arbitraries per RFC grammar, raw octets, mutated tokens — with a fixed seed
 * by default, so a failure comes with a shrunk counterexample and a replay line.
 */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

export const fuzzInvalidCredentialNo2xx: Rule = {
  id: 'fuzz.invalid-credential.no-2xx',
  level: 'MUST',
  requirement:
    'No generated invalid credential (malformed, or well-formed but wrong, in any scheme, raw octets included) is answered with 2xx on the protected path.',
  refs: [seed('5', 'rule 2'), rfc(9110, '15.5.2'), rfc(9110, '11.6.2')],
  statuses: [400, 401],
  needs: ['endpoints.protected'],
  impact: 'access',
  remedy: 'Verify every credential fully before serving: no malformed or wrong value may reach the resource.',
};

export const fuzzNo5xx: Rule = {
  id: 'fuzz.no-5xx',
  level: 'MUST',
  requirement:
    'No generated Authorization input (malformed values, raw CR/LF/NUL/obs-text octets, wrong credentials, mutated tokens) is answered with 5xx or a dropped connection.',
  refs: [seed('7', '400'), seed('7', '500'), rfc(9110, '15.5.1'), rfc(9110, '15.6.1'), rfc(9112, '2.2')],
  statuses: [400, 401, 500],
  needs: ['endpoints.protected'],
  impact: 'status',
  remedy:
    'Parse Authorization defensively: any value, raw octets included, gets 400 or 401, never a 5xx or a dropped connection.',
};

export const fuzzChallengeOn401: Rule = {
  id: 'fuzz.401.challenge',
  level: 'MUST',
  requirement:
    'Every 401 provoked by a generated input carries a WWW-Authenticate field that parses under RFC 9110 §11.6.1 with at least one challenge.',
  refs: [rfc(9110, '11.6.1'), rfc(9110, '15.5.2'), rfc(9110, '11.3')],
  statuses: [401],
  needs: ['endpoints.protected'],
  impact: 'status',
  remedy: 'Send a parseable WWW-Authenticate on every 401, whatever the refused input was.',
};

export const fuzzBearerErrorCode: Rule = {
  id: 'fuzz.bearer.error-code',
  level: 'SHOULD',
  requirement:
    'Every Bearer challenge error provoked by a generated input is invalid_request, invalid_token or insufficient_scope, with status 400, 401 or 403 to match.',
  refs: [rfc(6750, '3.1'), rfc(6750, '3')],
  statuses: [400, 401, 403],
  needs: ['endpoints.protected.schemes (bearer)'],
  requires: ['bearer'],
  impact: 'status',
  remedy:
    'Pair each Bearer error code with its status: invalid_request 400, invalid_token 401, insufficient_scope 403.',
};

export const fuzzMalformedStatus: Rule = {
  id: 'fuzz.malformed.status',
  level: 'MUST',
  requirement:
    'Every generated malformed Authorization (empty, scheme only, not token68, not base64, no colon, control characters, misplaced whitespace, raw octets, two field lines, token sent twice) is answered with 400 or 401; an over-long one may get 431.',
  refs: [
    seed('7', '400'),
    seed('5', 'rule 2'),
    rfc(9110, '15.5.1'),
    rfc(9110, '11.4'),
    rfc(6750, '2.1'),
    rfc(7617, '2'),
    rfc(6585, '5'),
  ],
  statuses: [400, 401, 431],
  needs: ['endpoints.protected'],
  impact: 'status',
  remedy: 'Answer any malformed Authorization with 400 or 401 (431 for an over-long field).',
};

export const fuzzWrongCredentialStatus: Rule = {
  id: 'fuzz.wrong-credential.status',
  level: 'MUST',
  requirement:
    'Every generated well-formed but wrong credential (Bearer, Basic with ":" and UTF-8 in the password, Apikey, unknown schemes) is answered with 401.',
  refs: [seed('5', 'rule 2'), rfc(9110, '15.5.2'), rfc(6750, '3.1'), rfc(7617, '2')],
  statuses: [401],
  needs: ['endpoints.protected'],
  impact: 'status',
  remedy: 'Answer a well-formed but wrong credential with 401, in every scheme.',
};

export const fuzzLegalVariants: Rule = {
  id: 'fuzz.credential.legal-variants',
  level: 'MUST',
  requirement:
    'Legal spellings of a valid credential (scheme in any letter case, several spaces after it, whitespace around the field value) get the same status as its canonical form.',
  refs: [rfc(9110, '11.1'), rfc(9110, '11.4'), rfc(9110, '5.5')],
  statuses: [200],
  needs: ['endpoints.protected', 'identities.user (bearer, basic or apikey)'],
  impact: 'refusal',
  remedy:
    'Accept every legal spelling of a valid credential: the scheme word in any case, 1*SP after it, whitespace around the field value.',
};

export const fuzzPublicJunk: Rule = {
  id: 'fuzz.public.junk-authorization',
  level: 'MUST',
  requirement:
    'Junk Authorization headers (malformed, wrong, raw octets) on the public path never turn its 200 into a 5xx or a dropped connection.',
  refs: [seed('4'), seed('7', '500'), rfc(9110, '15.6.1')],
  statuses: [200, 500],
  needs: ['endpoints.public'],
  requires: ['public'],
  impact: 'refusal',
  remedy:
    'Ignore Authorization on the public read, or parse it defensively: junk never turns its 200 into a 5xx.',
};

export const fuzzJwtMutation: Rule = {
  id: 'fuzz.jwt.mutation.no-2xx',
  level: 'MUST',
  requirement:
    'No mutation of a valid token (alg none, key confusion, damaged or foreign signature, tampered claims, bad time/iss/aud claims, unknown crit, kid or key injection, broken structure, flipped bits) is answered with 2xx.',
  refs: [rfc(7515, '5.2'), rfc(7519, '7.2'), rfc(8725, '3.1'), rfc(7518, '3.6'), rfc(7519, '4.1.4')],
  statuses: [400, 401],
  needs: ['identities.user.bearer (a JWS) or jwt + identities.user.jwtClaims'],
  requires: ['jwt'],
  impact: 'access',
  remedy:
    'Verify signature, algorithm and claims of every token with a maintained JOSE library and pinned options.',
};

export const fuzzJwtEscalation: Rule = {
  id: 'fuzz.jwt.escalation.no-2xx',
  level: 'MUST',
  requirement:
    "No token whose claims were raised to admin without the issuer's key (unsigned edits, alg none, key confusion, zero ECDSA signature, kid or key injection) is answered with 2xx on the admin path.",
  refs: [rfc(7515, '5.2'), rfc(8725, '3.1'), rfc(8725, '2.1'), seed('7', '403')],
  statuses: [401, 403],
  needs: ['endpoints.admin', 'identities.user.bearer (a JWS) or jwt + identities.user.jwtClaims'],
  requires: ['jwt', 'admin-role'],
  impact: 'access',
  remedy: "Read roles only from a token whose signature verified with the issuer's key.",
};

export const fuzzRules: readonly Rule[] = [
  fuzzInvalidCredentialNo2xx,
  fuzzNo5xx,
  fuzzChallengeOn401,
  fuzzBearerErrorCode,
  fuzzMalformedStatus,
  fuzzWrongCredentialStatus,
  fuzzLegalVariants,
  fuzzPublicJunk,
  fuzzJwtMutation,
  fuzzJwtEscalation,
];
