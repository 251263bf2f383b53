import fc from 'fast-check';
import type { FuzzRequest } from '../request.ts';
import { malformedAuthorizationCase } from './malformedAuthorizationCase.ts';
import { wrongCredentialCase } from './wrongCredentialCase.ts';

/**
 * Any Authorization a client should not have sent: malformed (malformedAuthorizationCase) or well-formed
 * but wrong (wrongCredentialCase), as the invalid… and valid… arbitraries define them. No reading of any
 * of these is a valid credential (seed §5 rule 2).
 */
export function junkAuthorizationCase(): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { weight: 3, arbitrary: malformedAuthorizationCase() },
    { weight: 2, arbitrary: wrongCredentialCase() },
  );
}
