import type fc from 'fast-check';
import { SEED_CREDENTIALS } from '../../profile/credential-maker.ts';
import { validToken68 } from './validToken68.ts';

/**
 * One Bearer token sent twice: in the Authorization header and as the `access_token` query parameter.
 *
 * RFC 6750 §2: "Clients MUST NOT use more than one method to transmit the token in each request";
 * §3.1 `invalid_request`: the request "uses more than one method for including an access token".
 *
 *   Authorization: Bearer <b64token>     ; RFC 6750 §2.1
 *   ?access_token=<b64token>             ; RFC 6750 §2.3 (percent-encoded)
 *
 * The token is one no server issued, so only 400 or 401 fit. Shrinks towards the token `A`.
 */
export function invalidTokenInQueryAndHeader(): fc.Arbitrary<{
  readonly header: string;
  readonly query: string;
}> {
  return validToken68().map((token) => ({
    header: SEED_CREDENTIALS.bearer(token),
    query: `access_token=${encodeURIComponent(token)}`,
  }));
}
