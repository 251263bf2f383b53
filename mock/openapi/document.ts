/**
 * The mock's own OpenAPI 3.1 document (docs/mock.md "The mock describes itself"), generated from what the
 * mock enforces: each policy route becomes a path, each method an operation whose `security` lists the
 * schemes the policy accepts for it (an empty list = public, OpenAPI 3.1 §4.8.10 "Security Requirement
 * Object"), with the policy's scopes on the `oauth2` requirement and its roles as the role names OpenAPI
 * 3.1 allows on the other schemes. Response bodies are described from the seed data.
 */
import {
  X_APIKEY_SCHEME,
  X_BLOCKED,
  X_FAULT,
  X_JWT,
  X_MAX_BODY_BYTES,
  X_RATE_LIMIT,
} from '../../shared/openapi-extensions.ts';
import type { Policy, PolicyMethod, ProtectedAccess } from '../routing/policy.ts';
import type { MockExtensions } from './extensions.ts';

export const OPENAPI_PATH = '/openapi.json';

export interface MockDescription {
  readonly policy: Policy;
  /** The seed data (db.json): collections (arrays of items) and single resources (objects). */
  readonly data: Readonly<Record<string, unknown>>;
  /** The token endpoint's path (RFC 6749 §3.2), for the `oauth2` scheme's client-credentials flow. */
  readonly tokenPath: string;
  /** Every scope an identity of the mock may hold, for the `oauth2` flow's scope list. */
  readonly scopes: readonly string[];
  readonly realm: string;
  /** What OpenAPI has no field for, as `x-gatecheck-*` extensions (extensions.ts); absent: left out. */
  readonly extensions?: MockExtensions;
}

type Json = Record<string, unknown>;

/** OpenAPI 3.1 §4.8.27 "Security Scheme Object": one per Authorization scheme the mock's policy knows. */
function securitySchemes(tokenPath: string, scopes: readonly string[], extensions?: MockExtensions): Json {
  return {
    bearer: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'RFC 6750 §2.1: Authorization: Bearer <JWT>, e.g. one from the token endpoint.',
      ...(extensions === undefined ? {} : { [X_JWT]: extensions.jwt }),
    },
    basic: {
      type: 'http',
      scheme: 'basic',
      description: 'RFC 7617: Authorization: Basic base64(user:password).',
    },
    apikey: {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: 'Authorization: Apikey <key> (the key after the scheme name "Apikey").',
      [X_APIKEY_SCHEME]: 'Apikey',
    },
    oauth2: {
      type: 'oauth2',
      description: 'RFC 6749 §4.4: client credentials at the token endpoint; the token is sent as Bearer.',
      flows: {
        clientCredentials: {
          tokenUrl: tokenPath,
          scopes: Object.fromEntries(scopes.map((s) => [s, `The ${s} scope.`])),
        },
      },
    },
  };
}

/**
 * The policy's schemes for one operation, as alternative requirements; Bearer tokens may come from oauth2.
 * §4.8.30: an oauth2 requirement lists scopes only, so where the policy also asks for a role the oauth2
 * alternative is left out (it would claim any token with those scopes opens it): the bearer requirement,
 * which names the roles, covers tokens from the token endpoint too.
 */
function securityOf(access: ProtectedAccess): Json[] {
  // OpenAPI 3.1 §4.8.30: for schemes other than oauth2 the list names the roles required; the policy's scopes
  // are required of every scheme too, so they are listed as well (a credential without them gets 403).
  const roles = [...(access.roles ?? []), ...(access.scopes ?? [])];
  const requirements: Json[] = [];
  for (const scheme of access.schemes) {
    requirements.push({ [scheme]: roles });
    if (scheme === 'bearer' && (access.roles ?? []).length === 0)
      requirements.push({ oauth2: [...(access.scopes ?? [])] });
  }
  return requirements;
}

/** A JSON Schema (OpenAPI 3.1 uses JSON Schema 2020-12) of one seed value: types only, never the values. */
export function schemaOf(value: unknown): Json {
  if (Array.isArray(value)) return { type: 'array', items: value.length > 0 ? schemaOf(value[0]) : {} };
  if (value === null) return { type: 'null' };
  if (typeof value === 'object') {
    const properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, schemaOf(v)]));
    return { type: 'object', properties };
  }
  return { type: typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string' };
}

function problemResponse(description: string): Json {
  return {
    description,
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  };
}

/** `/users/:id` (the policy's syntax) → `/users/{id}` (OpenAPI's path templating, §4.8.8). */
function templated(path: string): { path: string; parameters: string[] } {
  const parameters: string[] = [];
  const out = path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    parameters.push(name);
    return `{${name}}`;
  });
  return { path: out, parameters };
}

const WRITES: readonly PolicyMethod[] = ['POST', 'PUT', 'PATCH'];

export function describeMock(description: MockDescription): Json {
  const paths: Json = {};
  for (const route of description.policy.routes) {
    const { path, parameters } = templated(route.path);
    const resource = route.path.split('/')[1] ?? '';
    const data = description.data[resource];
    const body = parameters.length > 0 && Array.isArray(data) ? data[0] : data;
    const item: Json = { $ref: `#/components/schemas/${resource}` };
    const operations: Json = {};
    if (parameters.length > 0)
      operations.parameters = parameters.map((name) => ({
        name,
        in: 'path',
        required: true,
        schema: { type: 'string' },
      }));
    for (const [method, access] of Object.entries(route.methods)) {
      if (access === 'closed' || access === undefined) continue;
      const responses: Json = {
        '200': {
          description: 'OK',
          content: { 'application/json': { schema: body === undefined ? {} : schemaOf(body) } },
        },
      };
      if (access !== 'public') {
        responses['401'] = problemResponse('No or invalid credentials, with a WWW-Authenticate challenge.');
        responses['403'] = problemResponse('Valid credentials lacking a role or scope.');
      }
      if (parameters.length > 0) responses['404'] = problemResponse('No item with this id.');
      responses['429'] = problemResponse('Too many requests, with Retry-After.');
      operations[method.toLowerCase()] = {
        operationId: `${method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c?: string) => (c ?? '').toUpperCase())}`,
        ...(route.description === undefined ? {} : { description: route.description }),
        security: access === 'public' ? [] : securityOf(access),
        ...(WRITES.includes(method as PolicyMethod) && Array.isArray(data)
          ? {
              requestBody: {
                required: true,
                content: { 'application/json': { schema: item } },
                ...(description.extensions === undefined
                  ? {}
                  : { [X_MAX_BODY_BYTES]: description.extensions.maxBodyBytes }),
              },
            }
          : {}),
        responses,
      };
    }
    paths[path] = operations;
  }
  const schemas: Json = {
    Problem: {
      type: 'object',
      description: 'RFC 9457 problem details.',
      properties: { type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' } },
    },
  };
  for (const [name, value] of Object.entries(description.data))
    if (Array.isArray(value) && value.length > 0) schemas[name] = schemaOf(value[0]);
  const x = description.extensions;
  return {
    openapi: '3.1.0',
    info: {
      title: 'gatecheck mock',
      version: '1.0.0',
      description: `The gatecheck mock's routes and their Authorization policy (realm "${description.realm}").`,
    },
    ...(x?.rateLimit === undefined ? {} : { [X_RATE_LIMIT]: x.rateLimit }),
    ...(x?.fault === undefined ? {} : { [X_FAULT]: x.fault }),
    ...(x?.blocked === undefined ? {} : { [X_BLOCKED]: x.blocked }),
    paths,
    components: {
      schemas,
      securitySchemes: securitySchemes(description.tokenPath, description.scopes, x),
    },
  };
}
