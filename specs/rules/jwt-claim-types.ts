/**
 * Time claims of the wrong JSON type that tell leniency from a skipped check (issue #68). jwt.claims.wrong-type
 * (jwt-claims.ts) sends each time claim as a string, array, object or boolean *carrying a time that must be
 * refused* — an expired exp, a future nbf: a verifier that reads "<number>" as that number refuses it, one that
 * refuses the type refuses it, and only one that skips the check accepts it. A wrong-type claim carrying a
 * time the token may have (a future exp written as a string) is another matter: PyJWT and ruby-jwt read
 * "<number>" as the time and accept, a leniency RFC 7519 §7.2 leaves to the verifier. This rule reports it.
 */
import { rfc } from './refs.ts';
import type { Rule } from './types.ts';

/**
 * INFO: RFC 7519 §4.1.4–§4.1.6 bind the producer ("MUST be a number containing a NumericDate value"); §7.2
 * lists what a verifier must check and leaves the reading of a malformed but valid-looking time to it.
 */
export const jwtWrongTypeLenient: Rule = {
  id: 'jwt.claims.wrong-type-lenient',
  level: 'INFO',
  requirement:
    'Reports which validly signed tokens whose exp, nbf or iat is of the wrong JSON type but carries a time the token may have (a future exp, a past nbf, iat now — as a string, array, object, boolean or null) are accepted; reading such a value as its time is allowed leniency.',
  refs: [rfc(7519, '4.1.4'), rfc(7519, '4.1.5'), rfc(7519, '4.1.6'), rfc(7519, '7.2')],
  statuses: [200, 401],
  needs: ['jwt', 'identities.user.jwtClaims'],
  requires: ['jwt'],
  impact: 'refusal',
  remedy:
    'Nothing to change for conformance; refusing a time claim that is not a JSON number (RFC 7519 §2 NumericDate) is the stricter reading.',
};

export const jwtClaimTypeRules: readonly Rule[] = [jwtWrongTypeLenient];
