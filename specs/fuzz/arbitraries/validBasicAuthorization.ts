import fc from 'fast-check';
import { CANONICAL_SCHEME_NAME } from '../../profile/credential-maker.ts';
import { schemeInAnyCase } from './schemeInAnyCase.ts';
import { separatingSpaces } from './separatingSpaces.ts';
import { validBasicUserPass } from './validBasicUserPass.ts';

/**
 * A well-formed Basic Authorization value for credentials no server has (random user-id and password,
 * passwords with ":" and non-ASCII UTF-8): the target must answer 401 (seed §5 rule 2).
 *
 * RFC 7617 §2 with RFC 4648 §4 (padded base64) and RFC 9110 §11.1, §11.4:
 *
 *   credentials = "Basic" 1*SP token68          ; token68 = base64( UTF-8( user-id ":" password ) )
 */
export function validBasicAuthorization(): fc.Arbitrary<string> {
  return fc
    .tuple(schemeInAnyCase(CANONICAL_SCHEME_NAME.basic), separatingSpaces(), validBasicUserPass())
    .map(
      ([scheme, spaces, { userId, password }]) =>
        `${scheme}${spaces}${Buffer.from(`${userId}:${password}`, 'utf8').toString('base64')}`,
    );
}
