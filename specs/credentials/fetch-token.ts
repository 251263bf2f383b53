/**
 * Obtains one Bearer token as the profile says (specs/profile/types.ts `TokenSource`):
 * - OAuth 2.0 (RFC 6749): client credentials (§4.4.2) or resource owner password (§4.3.2), a form body
 *   (§3.2), the client authenticated with HTTP Basic of the form-urlencoded id and secret or in the body
 *   (§2.3.1); the answer per §5.1 (`access_token`, `token_type` Bearer, `expires_in`), a refusal per §5.2;
 * - a login call: JSON or form body, the token and its lifetime read by JSON Pointer (RFC 6901).
 * Node's own client, so the run's TLS settings (specs/lib/tls.ts) apply as to every other request.
 */

import * as http from 'node:http';
import * as https from 'node:https';
import type { NodeTlsOptions } from '../lib/tls.ts';
import { SEED_CREDENTIALS } from '../profile/credential-maker.ts';
import type { LoginTokenSource, OAuth2TokenSource, TokenSource } from '../profile/types.ts';
import { TokenError } from './token-error.ts';

export interface FetchedToken {
  readonly token: string;
  /** Seconds, when the answer says; undefined: valid for the whole run. */
  readonly expiresIn: number | undefined;
}

export interface FetchContext {
  readonly baseUrl: string;
  readonly tls: NodeTlsOptions;
  readonly timeoutMs: number;
}

interface Answer {
  readonly status: number;
  readonly body: string;
}

function urlOf(pathOrUrl: string, baseUrl: string): URL {
  return /^https?:\/\//i.test(pathOrUrl)
    ? new URL(pathOrUrl)
    : new URL(`${baseUrl.replace(/\/+$/, '')}${pathOrUrl}`);
}

function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string,
  context: FetchContext,
): Promise<Answer | { error: string }> {
  return new Promise((resolve) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        method,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'gatecheck' },
        timeout: context.timeoutMs,
        ...(url.protocol === 'https:' ? context.tls : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', (e) => resolve({ error: e.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${context.timeoutMs} ms`)));
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    req.end(body);
  });
}

function json(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** RFC 6901 §4: evaluates `pointer` against `doc`. */
export function atPointer(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** RFC 6749 §2.3.1: id and secret are form-urlencoded (Appendix B) before they are joined for Basic. */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

async function oauth2(
  source: OAuth2TokenSource,
  field: string,
  context: FetchContext,
): Promise<FetchedToken> {
  const url = urlOf(source.tokenUrl, context.baseUrl);
  const params = new URLSearchParams({ grant_type: source.grant });
  if (source.grant === 'password') {
    params.set('username', source.username ?? '');
    params.set('password', source.password ?? '');
  }
  if (source.scope) params.set('scope', source.scope);
  if (source.audience) params.set('audience', source.audience);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if ((source.clientAuth ?? 'basic') === 'basic') {
    // RFC 6749 §2.3.1: client id and secret form-encoded, then sent with Basic.
    headers.authorization = SEED_CREDENTIALS.basic(
      formEncode(source.clientId),
      formEncode(source.clientSecret),
    );
  } else {
    params.set('client_id', source.clientId);
    params.set('client_secret', source.clientSecret);
  }
  const answer = await send(url, 'POST', headers, params.toString(), context);
  const where = `${field}/oauth2`;
  if ('error' in answer) {
    throw new TokenError(
      'unreachable',
      `${where}/tokenUrl`,
      `token endpoint ${url.origin}${url.pathname} unreachable (${answer.error})`,
    );
  }
  const doc = json(answer.body) as Record<string, unknown> | undefined;
  if (answer.status >= 400 && answer.status < 500) {
    // §5.2: the error code says which part of the request was wrong; name that field.
    const code =
      typeof doc?.error === 'string' && /^[\x20-\x21\x23-\x5B\x5D-\x7E]{1,64}$/.test(doc.error)
        ? doc.error
        : undefined;
    const blamed =
      code === 'invalid_client' || code === 'unauthorized_client'
        ? `${where}/clientSecret`
        : code === 'invalid_grant'
          ? `${where}/${source.grant === 'password' ? 'password' : 'grant'}`
          : code === 'invalid_scope'
            ? `${where}/scope`
            : where;
    throw new TokenError(
      'refused',
      blamed,
      `the token endpoint refused the request: ${answer.status}${code ? ` ${code}` : ''} (RFC 6749 §5.2)`,
    );
  }
  if (answer.status !== 200) {
    throw new TokenError(
      'unreachable',
      `${where}/tokenUrl`,
      `the token endpoint answered ${answer.status}, not 200`,
    );
  }
  const token = doc?.access_token;
  // §5.1: token_type is REQUIRED and case-insensitive; this suite sends the token as Bearer (RFC 6750).
  if (typeof token !== 'string' || token === '' || String(doc?.token_type).toLowerCase() !== 'bearer') {
    throw new TokenError(
      'unreachable',
      `${where}/tokenUrl`,
      'the token endpoint answered 200 without a Bearer access_token (RFC 6749 §5.1)',
    );
  }
  const expiresIn = typeof doc?.expires_in === 'number' && doc.expires_in > 0 ? doc.expires_in : undefined;
  return { token, expiresIn };
}

async function login(source: LoginTokenSource, field: string, context: FetchContext): Promise<FetchedToken> {
  const url = urlOf(source.path, context.baseUrl);
  const where = `${field}/login`;
  const headers: Record<string, string> = { accept: 'application/json' };
  let body = '';
  if (source.json) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(source.json);
  } else if (source.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(source.form).toString();
  }
  const answer = await send(url, source.method ?? 'POST', headers, body, context);
  if ('error' in answer) {
    throw new TokenError(
      'unreachable',
      `${where}/path`,
      `login call ${url.origin}${url.pathname} unreachable (${answer.error})`,
    );
  }
  if (answer.status >= 400 && answer.status < 500) {
    throw new TokenError('refused', where, `the login call was refused: ${answer.status}`);
  }
  if (answer.status < 200 || answer.status > 299) {
    throw new TokenError('unreachable', `${where}/path`, `the login call answered ${answer.status}`);
  }
  const doc = json(answer.body);
  const token = atPointer(doc, source.tokenPointer);
  if (typeof token !== 'string' || token === '') {
    throw new TokenError('refused', `${where}/tokenPointer`, 'points at no string in the login answer');
  }
  const lifetime =
    source.expiresInPointer === undefined ? undefined : atPointer(doc, source.expiresInPointer);
  return { token, expiresIn: typeof lifetime === 'number' && lifetime > 0 ? lifetime : undefined };
}

/** `field`: the identity's JSON Pointer, e.g. `/identities/admin/token`. Throws TokenError. */
export function fetchToken(source: TokenSource, field: string, context: FetchContext): Promise<FetchedToken> {
  return 'oauth2' in source ? oauth2(source.oauth2, field, context) : login(source.login, field, context);
}
