/**
 * What a document states beyond OpenAPI's own fields, in the `x-gatecheck-*` extensions
 * (shared/openapi-extensions.ts; docs/package.md "What a document can add"), turned into profile sections:
 * `jwt` with the private key left to an environment variable, `rateLimit` with a throw-away identity,
 * `fault`, `blocked`, and the collection's `maxBodyBytes`. Values are copied as the document gives them;
 * a section the profile schema then refuses is dropped with a to-do line by the caller (command.ts).
 */
import { JWT_PRIVATE_JWK_VARIABLE, JWT_SECRET_VARIABLE } from '../../shared/credential-env.ts';
import { isRecord } from '../../shared/is-record.ts';
import {
  X_BLOCKED,
  X_FAULT,
  X_JWT,
  X_MAX_BODY_BYTES,
  X_RATE_LIMIT,
} from '../../shared/openapi-extensions.ts';

type Json = Record<string, unknown>;

/** A JSON object (shared/is-record.ts), under the name init's readers use. */
export const isObject: (value: unknown) => value is Json = isRecord;

/** The environment variable the private signing key (a JWK as JSON, or an HMAC secret) is read from. */
export const JWT_KEY_ENV = JWT_PRIVATE_JWK_VARIABLE;
export const JWT_SECRET_ENV = JWT_SECRET_VARIABLE;

/**
 * The first `http` `bearer` scheme's `x-gatecheck-jwt`, else the first other scheme's (an `oauth2` or
 * `openIdConnect` scheme's tokens are sent as Bearer too, RFC 6750 §2.1 — the stand-in states it on each scheme
 * whose tokens it verifies), as the profile's `jwt` (RFC 7519, RFC 8725 §3.1).
 */
export function jwtFromDocument(doc: Json, todo: string[]): Json | undefined {
  const components = isObject(doc.components) ? doc.components : {};
  const schemes = Object.values(isObject(components.securitySchemes) ? components.securitySchemes : {});
  const stating = (s: unknown): s is Json => isObject(s) && isObject(s[X_JWT]);
  const bearer: Json | undefined =
    schemes.filter(stating).find((s) => s.type === 'http' && String(s.scheme).toLowerCase() === 'bearer') ??
    schemes.find(stating);
  const x = bearer?.[X_JWT];
  if (!isObject(x)) return undefined;
  const algorithms = Array.isArray(x.algorithms) ? x.algorithms.map(String) : [];
  const publicJwk = isObject(x.publicJwk) ? x.publicJwk : undefined;
  const alg = (typeof publicJwk?.alg === 'string' ? publicJwk.alg : undefined) ?? algorithms[0];
  if (alg === undefined) {
    todo.push(`/jwt: the document's ${X_JWT} names no algorithm; add jwt.alg and its key to mint tokens`);
    return undefined;
  }
  const symmetric = alg.startsWith('HS');
  const jwt: Json = {
    alg,
    ...(symmetric ? { secret: { env: JWT_SECRET_ENV } } : { privateJwk: { env: JWT_KEY_ENV } }),
    ...(publicJwk !== undefined && !symmetric ? { publicJwk } : {}),
    ...(typeof x.issuer === 'string' ? { issuer: x.issuer } : {}),
    ...(typeof x.audience === 'string' ? { audience: x.audience } : {}),
    ...(typeof x.leewaySeconds === 'number' ? { leewaySeconds: x.leewaySeconds } : {}),
  };
  todo.push(
    symmetric
      ? `/jwt/secret: the ${alg} secret the target verifies with, in ${JWT_SECRET_ENV}`
      : `/jwt/privateJwk: the private key (a JWK, as JSON) of a test issuer the target trusts${typeof publicJwk?.kid === 'string' ? ` (kid ${publicJwk.kid})` : ''}, in ${JWT_KEY_ENV}`,
  );
  if (publicJwk === undefined && !symmetric)
    todo.push(
      `/jwt/publicJwk: the target's public key${typeof x.jwksUri === 'string' ? `, from ${x.jwksUri}` : ''}; the key-confusion rules need it`,
    );
  return jwt;
}

const RATE_LIMIT_KEYS = ['address', 'identity', 'credential', 'endpoint'];

/**
 * `x-gatecheck-rate-limit` → `rateLimit`, its burst sent by the throw-away `ratelimit` identity: one limit, or a
 * list of them (docs/profile.md "Several limits"), each as one limit is read. With a `path` (an operation's
 * quota of its own) the burst goes there and the limit counts only there (`appliesTo`); `schemesOf` gives the
 * schemes that operation accepts. `name`, `routes` and `appliesTo` are kept as the document gives them.
 */
export function rateLimitFromDocument(
  doc: Json,
  todo: string[],
  schemesOf: (path: string, method: string) => readonly string[] | undefined = () => undefined,
): Json | Json[] | undefined {
  const x = doc[X_RATE_LIMIT];
  if (Array.isArray(x)) {
    const entries = x.flatMap((e, i) => {
      const entry = isObject(e) ? rateLimitEntry(e, `/rateLimit/${i}`, todo, schemesOf, i === 0) : undefined;
      return entry === undefined ? [] : [entry];
    });
    return entries.length === 0 ? undefined : entries.length === 1 ? entries[0] : entries;
  }
  return isObject(x) ? rateLimitEntry(x, '/rateLimit', todo, schemesOf, true) : undefined;
}

const APPLIES_TO = ['all', 'endpoint', 'anonymous', 'authenticated'];

function rateLimitEntry(
  x: Record<string, unknown>,
  where: string,
  todo: string[],
  schemesOf: (path: string, method: string) => readonly string[] | undefined,
  first: boolean,
): Json | undefined {
  const { limit, windowSeconds, key, burst, banAfter, banSeconds, name, routes, appliesTo } = x;
  const usable =
    Number.isInteger(limit) &&
    (limit as number) >= 1 &&
    typeof windowSeconds === 'number' &&
    windowSeconds > 0 &&
    (key === undefined || RATE_LIMIT_KEYS.includes(key as string));
  if (!usable) {
    todo.push(
      `${where}: the document's ${X_RATE_LIMIT} needs a whole limit ≥ 1, windowSeconds > 0 and a key of ${RATE_LIMIT_KEYS.join(', ')}; left out`,
    );
    return undefined;
  }
  if (key === undefined)
    todo.push(
      `${where}/key: the document names no key; the suite starts per credential and learns it from the limited answers it meets, and the run's politeness section says what to write here (docs/profile.md "Finding the key")`,
    );
  const method = typeof x.method === 'string' ? x.method.toUpperCase() : 'GET';
  const schemes = typeof x.path === 'string' ? schemesOf(x.path, method) : undefined;
  const only =
    typeof x.path === 'string'
      ? {
          appliesTo: 'endpoint',
          endpoint: { path: x.path, method, ...(schemes?.length ? { schemes: [...schemes] } : {}) },
        }
      : {};
  const stringList = Array.isArray(routes) && routes.every((r) => typeof r === 'string') ? routes : undefined;
  return Object.fromEntries(
    Object.entries({
      ...(typeof name === 'string' ? { name } : {}),
      limit,
      windowSeconds,
      key,
      burst,
      banAfter,
      banSeconds,
      ...(stringList === undefined ? {} : { routes: stringList }),
      ...(typeof appliesTo === 'string' && APPLIES_TO.includes(appliesTo) ? { appliesTo } : {}),
      ...(first ? { identity: 'ratelimit' } : {}),
      ...only,
    }).filter(([, v]) => v !== undefined),
  );
}

/**
 * `x-gatecheck-fault` → `fault`; without a path of its own it goes to `fallback`, with its method (any operation
 * honours it: Outline's protected read is `POST /auth.info`, and a GET there would be a 405, not the fault).
 */
export function faultFromDocument(
  doc: Json,
  fallback: { readonly path: string | undefined; readonly method: string } | undefined,
): Json | undefined {
  const x = doc[X_FAULT];
  if (!isObject(x)) return undefined;
  const own = typeof x.path === 'string';
  const path = own ? x.path : fallback?.path;
  if (path === undefined) return undefined;
  const method =
    typeof x.method === 'string' ? x.method : own ? 'GET' : (fallback?.method.toUpperCase() ?? 'GET');
  return { path, method, headers: x.headers };
}

/** `x-gatecheck-blocked` → `blocked`: the clients as the document gives them, and the closed request. */
export function blockedFromDocument(doc: Json): Json | undefined {
  const x = doc[X_BLOCKED];
  if (!isObject(x)) return undefined;
  return {
    ...(x.clients === undefined ? {} : { clients: x.clients }),
    ...(x.closed === undefined ? {} : { closed: x.closed }),
  };
}

/** The request body's `x-gatecheck-max-body-bytes` → the collection's `maxBodyBytes`. */
export function maxBodyBytesOf(requestBody: unknown): unknown {
  return isObject(requestBody) ? requestBody[X_MAX_BODY_BYTES] : undefined;
}
