/**
 * The token endpoint's answers, as RFC 6749 §5 writes them: JSON (not problem+json — §5.2 fixes the error
 * members), never cached (§5.1: "Cache-Control: no-store" and "Pragma: no-cache"), and for invalid_client a
 * 401 with a challenge for the scheme the client can authenticate with (§5.2).
 */

import { challenge } from '../http/challenge.ts';
import { jsonReply, type Reply } from '../http/reply.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import type { Issuer, TokenClaims } from './issue.ts';

/** RFC 6749 §5.2 error codes the mock answers with. */
export type TokenErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope';

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** §5.1: a successful answer. */
export function tokenReply(body: Record<string, unknown>): Reply {
  return jsonReply(200, body, NO_STORE);
}

/**
 * A granted request: the exchange's identity set (the journal names who was issued a token), the token issued
 * and answered as §5.1 has it — access_token, token_type, expires_in, and scope, as it may differ from the
 * request's.
 */
export async function grantAccessToken(
  exchange: Exchange,
  issue: Issuer,
  claims: TokenClaims,
): Promise<Reply> {
  exchange.identity = { id: claims.sub, scheme: 'bearer', roles: claims.roles, scopes: claims.scopes };
  const issued = await issue(claims, exchange.now);
  return tokenReply({
    access_token: issued.token,
    token_type: 'Bearer',
    expires_in: issued.expiresIn,
    scope: claims.scopes.join(' '),
  });
}

/** §5.2: 400, except invalid_client: 401 with `WWW-Authenticate: Basic realm=…` (§2.3.1 client_secret_basic). */
export function tokenError(code: TokenErrorCode, description: string, realm: string): Reply {
  const body = { error: code, error_description: description };
  if (code === 'invalid_client') {
    return jsonReply(401, body, { ...NO_STORE, 'www-authenticate': challenge('basic', realm) });
  }
  return jsonReply(400, body, NO_STORE);
}
