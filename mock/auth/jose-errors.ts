/**
 * Maps what jose's jwtVerify throws onto AuthFailureCodes, by jose's stable `code` strings
 * (jose src/util/errors.ts). Reasons are written here, not copied from jose, so none quotes the token.
 */
import { errors } from 'jose';
import { type AuthFailure, authFailure } from './failures.ts';

const CRIT_MESSAGE = /"crit"|Extension Header Parameter/;

function claimOf(
  error: errors.JWTClaimValidationFailed | errors.JWTExpired,
  name: string,
): number | undefined {
  const value = error.payload[name];
  return typeof value === 'number' ? value : undefined;
}

/**
 * The failure for a jose error. Anything that is not a JOSEError (a TypeError from bad options, a bug) is
 * re-thrown: it is a mistake of ours, not of the client, and the pipeline answers it with 500.
 */
export function joseFailure(error: unknown, nowSeconds: number, algorithms: readonly string[]): AuthFailure {
  if (!(error instanceof errors.JOSEError)) throw error;
  switch (error.code) {
    case errors.JWTExpired.code: {
      // RFC 7519 §4.1.4: the token MUST NOT be accepted on or after its "exp" time.
      const exp = claimOf(error as errors.JWTExpired, 'exp');
      const ago = exp === undefined ? '' : ` ${Math.max(0, nowSeconds - exp)} s ago`;
      return authFailure('jwt_expired', `token expired${ago}`, 'bearer');
    }
    case errors.JWTClaimValidationFailed.code: {
      const failed = error as errors.JWTClaimValidationFailed;
      if (failed.claim === 'nbf') {
        // RFC 7519 §4.1.5: the token MUST NOT be accepted before its "nbf" time.
        const nbf = claimOf(failed, 'nbf');
        const wait = nbf === undefined ? '' : ` for another ${Math.max(0, nbf - nowSeconds)} s`;
        return authFailure('jwt_not_yet_valid', `token is not valid yet${wait}`, 'bearer');
      }
      // jose's claim names are its own fixed set (iss, aud, sub, exp, nbf, iat, typ), never token content.
      const what = failed.reason === 'missing' ? 'is missing' : 'has an unexpected value';
      return authFailure('jwt_claim_invalid', `claim "${failed.claim}" ${what}`, 'bearer');
    }
    case errors.JOSEAlgNotAllowed.code:
      // RFC 8725 §3.1: only the allow-listed algorithms; `none` and HS* never are.
      return authFailure('jwt_alg_not_allowed', `"alg" is not one of ${algorithms.join(', ')}`, 'bearer');
    case errors.JWSSignatureVerificationFailed.code:
      return authFailure('jwt_signature_invalid', 'signature verification failed', 'bearer');
    case errors.JWKSNoMatchingKey.code:
      return authFailure(
        'jwt_signature_invalid',
        'no trusted key matches the token\'s "kid" and "alg"',
        'bearer',
      );
    case errors.JOSENotSupported.code:
    case errors.JWSInvalid.code:
      // RFC 7515 §4.1.11: a recipient MUST reject a JWS whose "crit" lists an extension it does not
      // understand. jose does so by default (JOSENotSupported), before it looks at the signature.
      if (CRIT_MESSAGE.test(error.message)) {
        return authFailure(
          'jwt_crit_unsupported',
          '"crit" lists an extension the mock does not support',
          'bearer',
        );
      }
      return authFailure('jwt_invalid', 'token is not a valid JWS compact serialization', 'bearer');
    default:
      return authFailure('jwt_invalid', `token is not a valid JWT (${error.code})`, 'bearer');
  }
}
