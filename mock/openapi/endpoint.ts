/**
 * `GET /openapi.json`: the mock's OpenAPI 3.1 document (document.ts), built once at start-up from the
 * policy, the seed data and the identities' scopes. Public, like the token endpoint beside it: a description
 * of the interface is no credential.
 */
import { readFile } from 'node:fs/promises';
import { loadIdentityStore } from '../auth/identity-store.ts';
import { problem } from '../http/problem.ts';
import { jsonReply, type Reply } from '../http/reply.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import type { Policy } from '../routing/policy.ts';
import { describeMock, OPENAPI_PATH } from './document.ts';
import type { MockExtensions } from './extensions.ts';

export interface OpenApiEndpoint {
  /** The path (without query) when it is the document's, else undefined. */
  owns(url: string | undefined): string | undefined;
  handle(exchange: Exchange): Reply;
}

export interface OpenApiOptions {
  readonly policy: Policy;
  readonly dataPath: string;
  readonly identitiesPath: string;
  readonly tokenPath: string;
  readonly realm: string;
  readonly extensions?: MockExtensions;
}

export async function createOpenApiEndpoint(options: OpenApiOptions): Promise<OpenApiEndpoint> {
  const [dataText, store] = await Promise.all([
    readFile(options.dataPath, 'utf8'),
    loadIdentityStore(options.identitiesPath),
  ]);
  const scopes = new Set<string>();
  for (const { identity } of [...store.passwords.values(), ...store.apikeys.values()])
    for (const scope of identity.scopes) scopes.add(scope);
  for (const route of options.policy.routes)
    for (const access of Object.values(route.methods))
      if (typeof access === 'object') for (const scope of access.scopes ?? []) scopes.add(scope);
  const document = describeMock({
    policy: options.policy,
    data: JSON.parse(dataText) as Record<string, unknown>,
    tokenPath: options.tokenPath,
    scopes: [...scopes].sort(),
    realm: options.realm,
    ...(options.extensions === undefined ? {} : { extensions: options.extensions }),
  });
  return {
    owns(url) {
      const q = url?.indexOf('?') ?? -1;
      const path = q === -1 ? url : url?.slice(0, q);
      return path === OPENAPI_PATH ? path : undefined;
    },
    handle(exchange) {
      if (exchange.method !== 'GET' && exchange.method !== 'HEAD') {
        return problem('method-not-allowed', `${OPENAPI_PATH} answers GET only.`, { allow: 'GET, HEAD' });
      }
      return jsonReply(200, document, { 'cache-control': 'no-cache' });
    },
  };
}
