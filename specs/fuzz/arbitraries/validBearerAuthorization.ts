import fc from 'fast-check';
import { CANONICAL_SCHEME_NAME } from '../../profile/credential-maker.ts';
import { schemeInAnyCase } from './schemeInAnyCase.ts';
import { separatingSpaces } from './separatingSpaces.ts';
import { validToken68 } from './validToken68.ts';

/**
 * A well-formed Bearer Authorization value with a token no server issued: the target must answer 401
 * (seed §5 rule 2; RFC 6750 §3.1 `invalid_token`).
 *
 * RFC 6750 §2.1 with RFC 9110 §11.1 (case-insensitive scheme) and §11.4 (1*SP):
 *
 *   credentials = "Bearer" 1*SP b64token
 *   b64token    = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
 */
export function validBearerAuthorization(): fc.Arbitrary<string> {
  return fc
    .tuple(schemeInAnyCase(CANONICAL_SCHEME_NAME.bearer), separatingSpaces(), validToken68())
    .map(([scheme, spaces, token]) => `${scheme}${spaces}${token}`);
}
