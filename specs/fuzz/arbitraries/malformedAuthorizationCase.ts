import fc from 'fast-check';
import type { ApikeyForm } from '../../profile/apikey-scheme.ts';
import { authorizationCase, type FuzzRequest } from '../request.ts';
import { invalidBase64Credentials } from './invalidBase64Credentials.ts';
import { invalidBasicControlChars } from './invalidBasicControlChars.ts';
import { invalidBasicNoColon } from './invalidBasicNoColon.ts';
import { invalidCredentialWhitespace } from './invalidCredentialWhitespace.ts';
import { invalidDuplicateAuthorization } from './invalidDuplicateAuthorization.ts';
import { invalidEmptyAuthorization } from './invalidEmptyAuthorization.ts';
import { invalidOverlongCredentials } from './invalidOverlongCredentials.ts';
import { invalidRawHeaderBytes } from './invalidRawHeaderBytes.ts';
import { invalidSchemeOnly } from './invalidSchemeOnly.ts';
import { invalidToken68Credentials } from './invalidToken68Credentials.ts';
import { invalidTokenInQueryAndHeader } from './invalidTokenInQueryAndHeader.ts';
import { validApikeyAuthorization } from './validApikeyAuthorization.ts';
import { validBearerAuthorization } from './validBearerAuthorization.ts';

/**
 * One request whose Authorization is malformed in one of the ways the invalid… arbitraries describe
 * (empty, scheme only, not token68, not base64, no colon, control characters, over-long, misplaced
 * whitespace, raw CR/LF/NUL/obs-text octets, two field lines, the token sent twice). The seed (§7) names
 * 400 for a malformed request and §5 rule 2 names 401 for one without valid credentials: both fit
 * (docs/design.md "The suite's rules": malformed credentials, 400 or 401); over-long values may also get 431 (RFC 6585 §5).
 */
export function malformedAuthorizationCase(apikey?: ApikeyForm): fc.Arbitrary<FuzzRequest> {
  const one = (kind: string, arbitrary: fc.Arbitrary<string>) =>
    arbitrary.map((value) => authorizationCase(kind, value));
  const wrongButWellFormed = fc.oneof(validBearerAuthorization(), validApikeyAuthorization(apikey));
  return fc.oneof(
    { weight: 1, arbitrary: one('invalidEmptyAuthorization', invalidEmptyAuthorization()) },
    { weight: 1, arbitrary: one('invalidSchemeOnly', invalidSchemeOnly()) },
    { weight: 4, arbitrary: one('invalidToken68Credentials', invalidToken68Credentials()) },
    { weight: 2, arbitrary: one('invalidBase64Credentials', invalidBase64Credentials()) },
    { weight: 1, arbitrary: one('invalidBasicNoColon', invalidBasicNoColon()) },
    { weight: 1, arbitrary: one('invalidBasicControlChars', invalidBasicControlChars()) },
    { weight: 1, arbitrary: one('invalidOverlongCredentials', invalidOverlongCredentials()) },
    { weight: 2, arbitrary: one('invalidCredentialWhitespace', invalidCredentialWhitespace()) },
    { weight: 4, arbitrary: one('invalidRawHeaderBytes', invalidRawHeaderBytes()) },
    {
      weight: 1,
      arbitrary: invalidDuplicateAuthorization(wrongButWellFormed).map(
        (lines): FuzzRequest => ({ kind: 'invalidDuplicateAuthorization', authorization: lines }),
      ),
    },
    {
      weight: 1,
      arbitrary: invalidTokenInQueryAndHeader().map(
        ({ header, query }): FuzzRequest => ({
          kind: 'invalidTokenInQueryAndHeader',
          authorization: [header],
          query,
        }),
      ),
    },
  );
}
