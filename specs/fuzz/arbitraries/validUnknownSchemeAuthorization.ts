import fc from 'fast-check';
import { TCHAR } from '../abnf.ts';
import { separatingSpaces } from './separatingSpaces.ts';
import { validToken68 } from './validToken68.ts';

const KNOWN = new Set(['bearer', 'basic', 'apikey']);

/**
 * A well-formed Authorization value whose scheme the seed does not define (`Digest`, `Negotiate`, `X!y`):
 * credentials the target cannot accept, so 401 (seed §5 rule 2; docs/design.md "Status choices": unaccepted scheme → 401).
 *
 * RFC 9110 §11.4, §11.1, §5.6.2:
 *
 *   credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
 *   auth-scheme = token = 1*tchar
 *
 * A generated name equal to a known scheme (any case) gets "-x" appended, so no case is filtered away.
 */
export function validUnknownSchemeAuthorization(): fc.Arbitrary<string> {
  const scheme = fc.oneof(
    fc.constantFrom('Digest', 'Negotiate', 'NTLM', 'HOBA', 'Mutual', 'DPoP', 'Token', 'Bearer-Token'),
    fc.string({ unit: fc.constantFrom(...TCHAR), minLength: 1, maxLength: 12 }),
  );
  return fc
    .tuple(scheme, separatingSpaces(), validToken68())
    .map(([name, spaces, token]) => `${KNOWN.has(name.toLowerCase()) ? `${name}-x` : name}${spaces}${token}`);
}
