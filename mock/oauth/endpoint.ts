/**
 * The mock's authorization-server side: `POST /oauth/token` (RFC 6749 §3.2) with the client-credentials
 * (§4.4) and resource-owner password (§4.3) grants, and `GET /.well-known/jwks.json` (RFC 7517 §5), the
 * public keys its tokens verify with. Both sit beside the protected routes, before the policy pipeline:
 * they are the way to *obtain* credentials, so they need none.
 */

import { readFile } from 'node:fs/promises';
import { loadIdentityStore, type StoredIdentity } from '../auth/identity-store.ts';
import { verifyPassword } from '../auth/password-hash.ts';
import { tooLargeReply } from '../http/bounded-body.ts';
import { problem } from '../http/problem.ts';
import { jsonReply, type Reply } from '../http/reply.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import { clientCredentialsOf } from './client-auth.ts';
import { type GrantType, loadClientRegistry } from './clients.ts';
import { readForm } from './form-body.ts';
import { createIssuer } from './issue.ts';
import type { OAuthSettings } from './settings.ts';
import { grantAccessToken, type TokenErrorCode, tokenError } from './token-reply.ts';

export const TOKEN_PATH = '/oauth/token';
export const JWKS_PATH = '/.well-known/jwks.json';

export interface OAuthEndpoints {
  /** The path (without query) when it is one of the two this module answers, else undefined. */
  owns(url: string | undefined): string | undefined;
  handle(exchange: Exchange): Promise<Reply>;
}

export interface OAuthOptions {
  readonly settings: OAuthSettings;
  readonly identitiesPath: string;
  /** The verifier's public JWK set (config.auth.jwksPath), served as is. */
  readonly jwksPath: string;
  readonly issuer: string;
  readonly audience: string;
  readonly realm: string;
  readonly maxBodyBytes: number;
}

export async function createOAuthEndpoints(options: OAuthOptions): Promise<OAuthEndpoints> {
  const [clients, store, jwksText, issue] = await Promise.all([
    loadClientRegistry(options.settings.clientsPath),
    loadIdentityStore(options.identitiesPath),
    readFile(options.jwksPath, 'utf8'),
    createIssuer({
      signingKeysPath: options.settings.signingKeysPath,
      issuer: options.issuer,
      audience: options.audience,
      lifetimeSeconds: options.settings.tokenLifetimeSeconds,
    }),
  ]);
  const jwks = JSON.parse(jwksText) as unknown;
  const byId = new Map<string, StoredIdentity>();
  for (const { identity } of [...store.passwords.values(), ...store.apikeys.values()])
    byId.set(identity.id, identity);
  const { realm } = options;

  const refuse = (exchange: Exchange, code: TokenErrorCode, description: string): Reply => {
    exchange.outcome = code;
    exchange.outcomeReason = description;
    return tokenError(code, description, realm);
  };

  const token = async (exchange: Exchange): Promise<Reply> => {
    const { req } = exchange;
    if (exchange.method !== 'POST') {
      return problem('method-not-allowed', `${TOKEN_PATH} answers POST only (RFC 6749 §3.2).`, {
        allow: 'POST',
      });
    }
    // §3.2: parameters in the application/x-www-form-urlencoded format.
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') {
      return refuse(exchange, 'invalid_request', 'the body must be application/x-www-form-urlencoded');
    }
    const form = await readForm(req, options.maxBodyBytes);
    if (!form.ok) {
      return form.why === 'too-large'
        ? tooLargeReply(req, options.maxBodyBytes)
        : refuse(exchange, 'invalid_request', 'the body ended early');
    }
    const { params } = form;
    for (const [name, values] of params) {
      // §3.2: "Request and response parameters MUST NOT be included more than once."
      if (values.length > 1) return refuse(exchange, 'invalid_request', `parameter ${name} is repeated`);
    }
    const one = (name: string): string | undefined => params.get(name)?.[0];
    const grant = one('grant_type');
    if (grant === undefined) return refuse(exchange, 'invalid_request', 'grant_type is missing');
    if (grant !== 'client_credentials' && grant !== 'password') {
      return refuse(exchange, 'unsupported_grant_type', 'grant_type must be client_credentials or password');
    }
    const presented = clientCredentialsOf(req, params);
    if (presented.kind === 'malformed') return refuse(exchange, 'invalid_request', presented.why);
    if (presented.kind === 'none') return refuse(exchange, 'invalid_client', 'no client authentication');
    const client = await clients.authenticate(presented.clientId, presented.secret);
    if (client === undefined) return refuse(exchange, 'invalid_client', 'unknown client or wrong secret');
    if (!client.grants.includes(grant as GrantType)) {
      return refuse(exchange, 'unauthorized_client', `this client may not use ${grant}`);
    }

    let identity: StoredIdentity | undefined;
    if (grant === 'password') {
      // §4.3.2: username and password are REQUIRED.
      const username = one('username');
      const password = one('password');
      if (username === undefined || password === undefined) {
        return refuse(exchange, 'invalid_request', 'username and password are required');
      }
      const user = store.passwords.get(username.normalize('NFC'));
      const ok = user !== undefined && (await verifyPassword(password, user.hash));
      if (!ok) return refuse(exchange, 'invalid_grant', 'wrong username or password');
      identity = user.identity;
    } else {
      identity = byId.get(client.identity);
      if (identity === undefined) return refuse(exchange, 'unauthorized_client', 'client has no identity');
    }

    // §3.3: the requested scope must be within what the identity holds.
    const requested = one('scope')
      ?.split(' ')
      .filter((s) => s !== '');
    const scopes = requested ?? identity.scopes;
    const extra = scopes.find((s) => !identity.scopes.includes(s));
    if (extra !== undefined) return refuse(exchange, 'invalid_scope', `scope ${extra} is not granted`);
    const audience = one('audience');
    if (audience !== undefined && audience !== options.audience) {
      return refuse(exchange, 'invalid_request', `audience must be ${options.audience}`);
    }

    return grantAccessToken(exchange, issue, {
      sub: identity.id,
      roles: identity.roles,
      scopes,
      clientId: client.clientId,
    });
  };

  return {
    owns(url) {
      const q = url?.indexOf('?') ?? -1;
      const path = q === -1 ? url : url?.slice(0, q);
      return path === TOKEN_PATH || path === JWKS_PATH ? path : undefined;
    },
    async handle(exchange) {
      if (exchange.path === TOKEN_PATH) return token(exchange);
      if (exchange.method !== 'GET' && exchange.method !== 'HEAD') {
        return problem('method-not-allowed', `${JWKS_PATH} answers GET only.`, { allow: 'GET, HEAD' });
      }
      return jsonReply(200, jwks, { 'cache-control': 'public, max-age=300' });
    },
  };
}
