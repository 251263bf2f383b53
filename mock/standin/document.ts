/**
 * `GET /openapi.json` of the stand-in: the document it stands in for, served back with `servers` pointed at
 * the mock (its origin as the request names it, RFC 9110 §7.2 Host, and the document's path prefix), every
 * Path Item's and Operation's own `servers` pointed at the mock under their own path (the mock serves them
 * there), and each `oauth2` flow's
 * `tokenUrl` at the mock's token endpoint, and each scheme whose tokens the mock verifies as JWTs carrying
 * `x-gatecheck-jwt` (its issuer, audience, algorithms, leeway, public key and JWKS, as the default mock's own
 * document states them, docs/package.md "What a document can add") — so `gatecheck init
 * http://…/openapi.json` writes a profile that runs against the mock as it is, JWT rules included.
 * Recursive schemas (a dereferenced document's cycles) are cut at the repeat.
 */

import { type Server, serverOf } from '../../cli/init/servers.ts';
import { isRecord } from '../../shared/is-record.ts';
import { type JwtExtension, X_BLOCKED, X_FAULT, X_JWT } from '../../shared/openapi-extensions.ts';
import { problem } from '../http/problem.ts';
import { jsonReply, type Reply } from '../http/reply.ts';
import { JWKS_PATH, TOKEN_PATH } from '../oauth/endpoint.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import type { ServedExtensions } from './extensions.ts';
import type { BesideEndpoint } from './token.ts';

type Json = Record<string, unknown>;

export const STAND_IN_DOCUMENT_PATH = '/openapi.json';

/** A server's path (`https://api.example/v2` → `/v2`; a relative `/api` as it is). */
export function pathOfServer(server: Server | undefined): string {
  if (server?.url !== undefined) return new URL(server.url).pathname.replace(/\/+$/, '');
  return server?.prefix ?? '';
}

/** A copy without cycles: an object met again inside itself becomes `{}`. */
function acyclic(value: unknown, ancestors: Set<unknown> = new Set()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (ancestors.has(value)) return {};
  ancestors.add(value);
  const out = Array.isArray(value)
    ? value.map((v) => acyclic(v, ancestors))
    : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, acyclic(v, ancestors)]));
  ancestors.delete(value);
  return out;
}

export function standInDocument(
  doc: Json,
  prefix: string,
  jwt?: { readonly extension: JwtExtension; readonly schemes: readonly string[] },
  /** The mock's own blocked clients and fault header, stated where the document states none. */
  own?: ServedExtensions,
): BesideEndpoint {
  const base = acyclic(doc) as Json;
  // A Path Item's or Operation's own `servers` (§4.8.9, §4.8.10): served under their path on the mock, so
  // each is pointed at the mock with that path (`owned` holds them, rewritten per origin below).
  const owned: { readonly holder: Json; readonly path: string }[] = [];
  for (const item of Object.values(isRecord(base.paths) ? base.paths : {}))
    if (isRecord(item))
      for (const holder of [item, ...Object.values(item).filter(isRecord)])
        if (Array.isArray(holder.servers))
          owned.push({ holder, path: pathOfServer(serverOf([holder.servers], undefined)) });
  const byOrigin = new Map<string, Reply>();
  const documentFor = (origin: string): Reply => {
    let reply = byOrigin.get(origin);
    if (reply !== undefined) return reply;
    for (const { holder, path } of owned) holder.servers = [{ url: `${origin}${path}` }];
    const served = structuredClone(base);
    if (own?.blocked !== undefined) served[X_BLOCKED] = own.blocked;
    if (own?.fault !== undefined) served[X_FAULT] = own.fault;
    served.servers = [
      { url: `${origin}${prefix}`, description: 'the gatecheck mock standing in for this API' },
    ];
    const schemes =
      isRecord(served.components) && isRecord(served.components.securitySchemes)
        ? served.components.securitySchemes
        : {};
    for (const name of jwt?.schemes ?? []) {
      const scheme = schemes[name];
      if (isRecord(scheme)) scheme[X_JWT] = { ...jwt?.extension, jwksUri: `${origin}${JWKS_PATH}` };
    }
    for (const scheme of Object.values(schemes))
      if (isRecord(scheme) && scheme.type === 'oauth2' && isRecord(scheme.flows))
        for (const flow of Object.values(scheme.flows))
          if (isRecord(flow) && typeof flow.tokenUrl === 'string') flow.tokenUrl = `${origin}${TOKEN_PATH}`;
    reply = jsonReply(200, served, { 'cache-control': 'no-cache' });
    // A bounded memo: a client may name the mock by many Host values; a few are kept.
    if (byOrigin.size < 16) byOrigin.set(origin, reply);
    return reply;
  };
  return {
    owns(url) {
      const q = url?.indexOf('?') ?? -1;
      const path = q === -1 ? url : url?.slice(0, q);
      return path === STAND_IN_DOCUMENT_PATH ? path : undefined;
    },
    handle(exchange: Exchange) {
      if (exchange.method !== 'GET' && exchange.method !== 'HEAD')
        return problem('method-not-allowed', `${STAND_IN_DOCUMENT_PATH} answers GET only.`, {
          allow: 'GET, HEAD',
        });
      const host = exchange.req.headers.host ?? '127.0.0.1';
      const secure = (exchange.req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
      return documentFor(`${secure ? 'https' : 'http'}://${host}`);
    },
  };
}
