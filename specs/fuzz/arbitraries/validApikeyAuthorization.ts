import fc from 'fast-check';
import { schemeInAnyCase } from './schemeInAnyCase.ts';
import { separatingSpaces } from './separatingSpaces.ts';
import { validToken68 } from './validToken68.ts';

/**
 * A well-formed Apikey Authorization value with a key nobody issued: the target must answer 401.
 *
 * Seed §5 `Authorization: Apikey <key>`, the key taken as token68 (RFC 9110 §11.4, §11.2):
 *
 *   credentials = "Apikey" 1*SP token68
 */
export function validApikeyAuthorization(): fc.Arbitrary<string> {
  return fc
    .tuple(schemeInAnyCase('Apikey'), separatingSpaces(), validToken68({ minLength: 8, maxLength: 48 }))
    .map(([scheme, spaces, key]) => `${scheme}${spaces}${key}`);
}
