import fc from 'fast-check';
import type { ApikeyForm } from '../../profile/apikey-scheme.ts';
import { authorizationCase, type FuzzRequest } from '../request.ts';
import { validApikeyAuthorization } from './validApikeyAuthorization.ts';
import { validBasicAuthorization } from './validBasicAuthorization.ts';
import { validBearerAuthorization } from './validBearerAuthorization.ts';
import { validUnknownSchemeAuthorization } from './validUnknownSchemeAuthorization.ts';

/**
 * One request with a well-formed but wrong credential: every scheme of the seed (§5) with a token, key or
 * user-id/password nobody issued, and schemes the seed does not define. Each follows its grammar exactly
 * (see the arbitraries it draws from), so the only right answer is 401 (seed §5 rule 2, RFC 9110 §15.5.2).
 *
 * Basic is drawn less often (1 in 17): each unknown Basic credential costs a real server one password-hash
 * derivation, the expensive path by design — against the mock one scrypt, about 15 times the CPU of any
 * other case here, while what it exercises (base64, UTF-8, the user-id/password split, the 401) is the same
 * for every unknown user. At 1 in 9 these cases took about a third of the mock's CPU in the fuzz phase.
 */
export function wrongCredentialCase(apikey?: ApikeyForm): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    {
      weight: 8,
      arbitrary: validBearerAuthorization().map((v) => authorizationCase('validBearerAuthorization', v)),
    },
    {
      weight: 1,
      arbitrary: validBasicAuthorization().map((v) => authorizationCase('validBasicAuthorization', v)),
    },
    {
      weight: 4,
      arbitrary: validApikeyAuthorization(apikey).map((v) =>
        authorizationCase('validApikeyAuthorization', v),
      ),
    },
    {
      weight: 4,
      arbitrary: validUnknownSchemeAuthorization().map((v) =>
        authorizationCase('validUnknownSchemeAuthorization', v),
      ),
    },
  );
}
