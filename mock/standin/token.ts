/**
 * The stand-in's authorization-server side, for documents whose `oauth2` schemes have a client-credentials or
 * password flow: `POST /oauth/token` (RFC 6749 §3.2, §4.4, §4.3) hands the mock's identities JWTs with the
 * scopes they hold (or the subset asked for, §3.3), and `GET /.well-known/jwks.json` (RFC 7517 §5) the public
 * keys they verify with. The served document's flows name this token URL (document.ts).
 */
import { readFile } from 'node:fs/promises';
import { problem } from '../http/problem.ts';
import { jsonReply, type Reply } from '../http/reply.ts';
import { clientCredentialsOf } from '../oauth/client-auth.ts';
import { JWKS_PATH, TOKEN_PATH } from '../oauth/endpoint.ts';
import { readForm } from '../oauth/form-body.ts';
import type { Issuer } from '../oauth/issue.ts';
import { grantAccessToken, type TokenErrorCode, tokenError } from '../oauth/token-reply.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import type { StandInIdentity } from './identities.ts';

export interface BesideEndpoint {
  owns(url: string | undefined): string | undefined;
  handle(exchange: Exchange): Reply | Promise<Reply>;
}

const pathOf = (url: string | undefined) => {
  const q = url?.indexOf('?') ?? -1;
  return q === -1 ? url : url?.slice(0, q);
};

export async function standInTokenEndpoint(options: {
  readonly identities: readonly StandInIdentity[];
  readonly issue: Issuer;
  readonly jwksPath: string;
  readonly realm: string;
  readonly maxBodyBytes: number;
}): Promise<BesideEndpoint> {
  const jwks = JSON.parse(await readFile(options.jwksPath, 'utf8')) as unknown;
  const byClient = new Map(options.identities.map((id) => [id.clientId, id]));
  const byUser = new Map(options.identities.map((id) => [id.username, id]));
  const refuse = (exchange: Exchange, code: TokenErrorCode, description: string): Reply => {
    exchange.outcome = code;
    exchange.outcomeReason = description;
    return tokenError(code, description, options.realm);
  };

  const token = async (exchange: Exchange): Promise<Reply> => {
    if (exchange.method !== 'POST')
      return problem('method-not-allowed', `${TOKEN_PATH} answers POST only (RFC 6749 §3.2).`, {
        allow: 'POST',
      });
    const type = (exchange.req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded')
      return refuse(exchange, 'invalid_request', 'the body must be application/x-www-form-urlencoded');
    const form = await readForm(exchange.req, options.maxBodyBytes);
    if (!form.ok) return refuse(exchange, 'invalid_request', 'the body ended early or is too large');
    const one = (name: string) => form.params.get(name)?.[0];
    const grant = one('grant_type');
    if (grant !== 'client_credentials' && grant !== 'password')
      return refuse(exchange, 'unsupported_grant_type', 'grant_type must be client_credentials or password');
    const presented = clientCredentialsOf(exchange.req, form.params);
    if (presented.kind === 'malformed') return refuse(exchange, 'invalid_request', presented.why);
    if (presented.kind === 'none') return refuse(exchange, 'invalid_client', 'no client authentication');
    const client = byClient.get(presented.clientId);
    if (client === undefined || client.clientSecret !== presented.secret)
      return refuse(exchange, 'invalid_client', 'unknown client or wrong secret');
    let identity = client;
    if (grant === 'password') {
      const user = byUser.get(one('username') ?? '');
      if (user === undefined || user.password !== one('password'))
        return refuse(exchange, 'invalid_grant', 'wrong username or password');
      identity = user;
    }
    // §3.3: the scope asked for must be within what the identity holds; none asked → all it holds.
    const asked = one('scope')
      ?.split(' ')
      .filter((s) => s !== '');
    const scopes = asked ?? [...identity.grants];
    const extra = scopes.find((s) => !identity.grants.includes(s));
    if (extra !== undefined) return refuse(exchange, 'invalid_scope', `scope ${extra} is not granted`);
    return grantAccessToken(exchange, options.issue, {
      sub: identity.name,
      roles: identity.roles,
      scopes,
      clientId: client.clientId,
    });
  };

  return {
    owns(url) {
      const path = pathOf(url);
      return path === TOKEN_PATH || path === JWKS_PATH ? path : undefined;
    },
    handle(exchange) {
      if (exchange.path === TOKEN_PATH) return token(exchange);
      if (exchange.method !== 'GET' && exchange.method !== 'HEAD')
        return problem('method-not-allowed', `${JWKS_PATH} answers GET only.`, { allow: 'GET, HEAD' });
      return jsonReply(200, jwks, { 'cache-control': 'public, max-age=300' });
    },
  };
}
