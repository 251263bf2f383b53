/**
 * From a dereferenced OpenAPI 3.0/3.1 document to a starting profile (docs/package.md "gatecheck init").
 * Pure: the document in, the profile and its to-do list out. What the document states is taken as is;
 * every choice it leaves open is guessed and written into the profile's `todo` list, naming the field.
 *
 * OpenAPI 3.1 §4.8.27 (Security Scheme Object) → the profile's schemes: `http` bearer → bearer, `http`
 * basic → basic, `apiKey` in the Authorization header → apikey, `oauth2` client-credentials flow → Bearer
 * tokens from its `tokenUrl` (RFC 6749 §4.4). §4.8.10 (Security Requirement Object): an operation's
 * `security` overrides the document's; an empty requirement `{}` makes it public.
 */

import { type CredentialSuffix, credentialVariable } from '../../shared/credential-env.ts';
import {
  blockedFromDocument,
  faultFromDocument,
  isObject,
  jwtFromDocument,
  maxBodyBytesOf,
  rateLimitFromDocument,
} from './document-extensions.ts';

type Json = Record<string, unknown>;
type Scheme = 'bearer' | 'basic' | 'apikey';
type EnvRef = { env: string };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];

export interface InitResult {
  readonly profile: Json;
  readonly todo: string[];
}

interface Operation {
  readonly path: string;
  readonly method: Method;
  readonly templated: boolean;
  readonly public: boolean;
  readonly schemes: readonly Scheme[];
  /** Scopes (oauth2) and role names (other schemes, OpenAPI 3.1) the requirements name. */
  readonly needs: readonly string[];
  /** The fewest scopes or roles one alternative requirement asks for: 0 when any credential will do. */
  readonly least: number;
  readonly body: Json | undefined;
  /** The request body's `x-gatecheck-max-body-bytes`, as the document gives it. */
  readonly maxBodyBytes: unknown;
}

interface SchemeMap {
  readonly byName: ReadonlyMap<string, Scheme>;
  readonly tokenUrl: string | undefined;
  readonly flowScopes: readonly string[];
  readonly unsupported: readonly string[];
}

function readSchemes(doc: Json): SchemeMap {
  const byName = new Map<string, Scheme>();
  const unsupported: string[] = [];
  let tokenUrl: string | undefined;
  let flowScopes: string[] = [];
  const components = isObject(doc.components) ? doc.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  for (const [name, raw] of Object.entries(schemes)) {
    if (!isObject(raw)) continue;
    const type = String(raw.type ?? '');
    const httpScheme = String(raw.scheme ?? '').toLowerCase();
    if (type === 'http' && httpScheme === 'bearer') byName.set(name, 'bearer');
    else if (type === 'http' && httpScheme === 'basic') byName.set(name, 'basic');
    else if (type === 'apiKey' && raw.in === 'header' && String(raw.name).toLowerCase() === 'authorization')
      byName.set(name, 'apikey');
    else if (type === 'oauth2' && isObject(raw.flows) && isObject(raw.flows.clientCredentials)) {
      byName.set(name, 'bearer');
      const flow = raw.flows.clientCredentials;
      tokenUrl = typeof flow.tokenUrl === 'string' ? flow.tokenUrl : undefined;
      flowScopes = isObject(flow.scopes) ? Object.keys(flow.scopes) : [];
    } else
      unsupported.push(
        `${name} (${type}${httpScheme ? ` ${httpScheme}` : ''}${raw.in ? ` in ${raw.in}` : ''})`,
      );
  }
  return { byName, tokenUrl, flowScopes, unsupported };
}

function readOperations(doc: Json, schemes: SchemeMap): Operation[] {
  const operations: Operation[] = [];
  const global = Array.isArray(doc.security) ? doc.security : [];
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const requirements = (Array.isArray(op.security) ? op.security : global).filter(isObject);
      // §4.8.10: an empty requirement object makes security optional, i.e. the operation public.
      const isPublic = requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0);
      const found = new Set<Scheme>();
      const needs = new Set<string>();
      let least = Number.POSITIVE_INFINITY;
      for (const requirement of requirements) {
        least = Math.min(least, Object.values(requirement).flat().length);
        for (const [name, listed] of Object.entries(requirement)) {
          const scheme = schemes.byName.get(name);
          if (scheme !== undefined) found.add(scheme);
          if (Array.isArray(listed)) for (const need of listed) needs.add(String(need));
        }
      }
      const content =
        isObject(op.requestBody) && isObject(op.requestBody.content) ? op.requestBody.content : {};
      const json = content['application/json'];
      operations.push({
        path,
        method,
        templated: path.includes('{'),
        public: isPublic,
        schemes: (['bearer', 'basic', 'apikey'] as const).filter((s) => found.has(s)),
        needs: [...needs],
        least: Number.isFinite(least) ? least : 0,
        body: isObject(json) && isObject(json.schema) ? json.schema : undefined,
        maxBodyBytes: maxBodyBytesOf(op.requestBody),
      });
    }
  }
  return operations;
}

/** A JSON value a JSON Schema accepts, from its `example`, `default`, `enum` or type: a guess to confirm. */
function sampleOf(schema: Json, depth = 0): unknown {
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' || isObject(schema.properties)) {
    const properties = isObject(schema.properties) ? schema.properties : {};
    // Without `required`, every property but an `id` the server assigns.
    const required = Array.isArray(schema.required)
      ? schema.required.map(String)
      : Object.keys(properties).filter((name) => name !== 'id');
    const out: Json = {};
    if (depth < 3)
      for (const name of required) {
        const property = properties[name];
        if (isObject(property) && property.readOnly !== true) out[name] = sampleOf(property, depth + 1);
      }
    return out;
  }
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (schema.format === 'email') return 'probe@example.test';
  return 'gatecheck-probe';
}

/** The variable's name comes from the one table init and the mock share (shared/credential-env.ts). */
function env(identity: string, field: CredentialSuffix): EnvRef {
  return { env: credentialVariable(identity, field) };
}

function identity(
  name: 'admin' | 'user' | 'ratelimit',
  schemes: readonly Scheme[],
  map: SchemeMap,
  scope?: string,
): Json {
  const out: Json = {};
  if (schemes.includes('bearer')) {
    if (map.tokenUrl !== undefined) {
      out.token = {
        oauth2: {
          tokenUrl: map.tokenUrl,
          grant: 'client_credentials',
          clientId: env(name, 'CLIENT_ID'),
          clientSecret: env(name, 'CLIENT_SECRET'),
          ...(scope ? { scope } : {}),
        },
      };
    } else out.bearer = env(name, 'BEARER');
  }
  if (schemes.includes('basic'))
    out.basic = { username: env(name, 'USERNAME'), password: env(name, 'PASSWORD') };
  if (schemes.includes('apikey')) out.apikey = env(name, 'APIKEY');
  return out;
}

const by = (a: Operation, b: Operation): number =>
  a.path.length - b.path.length || a.path.localeCompare(b.path);

export function profileFromOpenApi(doc: Json): InitResult {
  const todo: string[] = [];
  const schemes = readSchemes(doc);
  for (const name of schemes.unsupported)
    todo.push(
      `security scheme ${name}: not one gatecheck checks (Bearer, Basic, Apikey in Authorization); left out`,
    );
  const operations = readOperations(doc, schemes);
  const gets = operations.filter((o) => o.method === 'get').sort(by);
  const endpoints: Json = {};
  const line = (o: Operation) => `${o.method.toUpperCase()} ${o.path}`;

  const pub = gets.find((o) => o.public && !o.templated);
  if (pub) endpoints.public = { path: pub.path, method: 'GET' };
  else
    todo.push(
      '/endpoints/public: the document has no public GET without path parameters; add one if the target has it',
    );

  const guarded = gets.filter((o) => !o.public && !o.templated && o.schemes.length > 0);
  // The protected endpoint: the one needing least (no role or scope first).
  const protectedOp = [...guarded].sort((a, b) => a.least - b.least || by(a, b))[0];
  if (protectedOp) {
    endpoints.protected = { path: protectedOp.path, method: 'GET', schemes: protectedOp.schemes };
    if (protectedOp.least > 0)
      todo.push(
        `/endpoints/protected: ${line(protectedOp)} needs ${protectedOp.needs.join(', ')}; every identity must hold it`,
      );
  } else todo.push('/endpoints/protected: no GET with a security requirement and without path parameters');

  // The admin endpoint: a GET needing a role or scope that the protected one does not need.
  const admin = guarded
    .filter((o) => o !== protectedOp && o.least > (protectedOp?.least ?? 0))
    .sort(
      (a, b) =>
        Number(/admin/i.test(b.needs.join(' ') + b.path)) -
          Number(/admin/i.test(a.needs.join(' ') + a.path)) || by(a, b),
    )[0];
  if (admin) {
    endpoints.admin = { path: admin.path, method: 'GET', schemes: admin.schemes };
    todo.push(
      `/endpoints/admin: guessed ${line(admin)} (needs ${admin.needs.join(', ')}); confirm the user identity lacks it and gets 403`,
    );
  } else
    todo.push(
      '/endpoints/admin: no GET needing a role or scope beyond the protected one; add one if the target has it',
    );

  endpoints.missing = { path: '/gatecheck-no-such-path' };

  // A collection: POST on a path whose item path (`/x/{id}`) takes PUT, PATCH or DELETE.
  const post = operations
    .filter((o) => o.method === 'post' && !o.templated && !o.public)
    .sort(by)
    .find((o) =>
      operations.some(
        (i) => i.path.startsWith(`${o.path}/{`) && ['put', 'patch', 'delete'].includes(i.method),
      ),
    );
  if (post) {
    const sample = post.body ? sampleOf(post.body) : {};
    const writer = post.needs.length > 0 ? 'admin' : 'user';
    endpoints.collection = {
      path: post.path,
      writeSchemes: post.schemes,
      writer,
      sampleItem: isObject(sample) ? sample : {},
      missingId: 'gatecheck-no-such-id',
      ...(post.maxBodyBytes === undefined ? {} : { maxBodyBytes: post.maxBodyBytes }),
    };
    todo.push(
      `/endpoints/collection/sampleItem: made from the request body schema of ${line(post)}; check the target accepts it`,
    );
    todo.push(
      `/endpoints/collection/writer: ${writer}${post.needs.length ? ` (writes need ${post.needs.join(', ')})` : ''}; confirm that identity may write`,
    );
  } else todo.push('/endpoints/collection: no POST on a collection whose items take PUT, PATCH or DELETE');

  // 405 candidate: a method the document does not define on the protected path (RFC 9110 §15.5.6).
  if (protectedOp) {
    const defined = new Set(operations.filter((o) => o.path === protectedOp.path).map((o) => o.method));
    const absent = (['delete', 'put', 'patch', 'post'] as const).find((m) => !defined.has(m));
    if (absent) {
      endpoints.methodNotAllowed = {
        path: protectedOp.path,
        method: absent.toUpperCase(),
        schemes: protectedOp.schemes,
      };
      todo.push(
        `/endpoints/methodNotAllowed: the document defines no ${absent.toUpperCase()} ${protectedOp.path}; confirm the target answers 405`,
      );
    }
  }

  const used = new Set<Scheme>();
  for (const o of operations) for (const s of o.schemes) used.add(s);
  const all = (['bearer', 'basic', 'apikey'] as const).filter((s) => used.has(s));
  const adminScope = schemes.flowScopes.length > 0 ? schemes.flowScopes.join(' ') : undefined;
  const rateLimit = rateLimitFromDocument(
    doc,
    todo,
    (path, method) => operations.find((o) => o.path === path && o.method === method.toLowerCase())?.schemes,
  );
  const identities: Record<string, Json> = {
    admin: identity('admin', all, schemes, adminScope),
    user: identity('user', all, schemes),
    ...(rateLimit === undefined ? {} : { ratelimit: identity('ratelimit', all, schemes) }),
  };
  if (all.length > 0)
    todo.push(
      `/identities: credentials are environment references (${Object.keys(identities)
        .map((n) => `GATECHECK_${n.toUpperCase()}_…`)
        .join(', ')}); set them, or the run stops naming the first one missing`,
    );
  if (rateLimit !== undefined)
    todo.push(
      '/identities/ratelimit: a throw-away identity the rate-limit rules exhaust (the target may ban it); give it credentials of its own',
    );
  const jwt = jwtFromDocument(doc, todo);
  if (jwt !== undefined) {
    addJwtClaims(identities, schemes.flowScopes, admin, operations);
    todo.push(
      '/identities/*/jwtClaims: the claims of the tokens the suite mints (sub, roles, scope) are guessed; use the names your target reads',
    );
  }
  const fault = faultFromDocument(doc, protectedOp?.path);
  const blocked = blockedFromDocument(doc);
  if (adminScope)
    todo.push(`/identities/admin/token/oauth2/scope: asks for every scope of the flow (${adminScope})`);

  const servers = Array.isArray(doc.servers) ? doc.servers.filter(isObject) : [];
  const server = servers.map((s) => String(s.url ?? '')).find((u) => /^https?:\/\//.test(u));
  if (server)
    todo.push(`/baseUrl: the document's first server, ${server}; BASE_URL or --base-url overrides it`);
  const info = isObject(doc.info) ? doc.info : {};

  const profile: Json = {
    $schema: './node_modules/gatecheck/fixtures/schemas/profile.schema.json',
    name: typeof info.title === 'string' && info.title !== '' ? info.title : 'target',
    todo,
    ...(server ? { baseUrl: server.replace(/\/$/, '') } : {}),
    endpoints,
    identities,
    ...(jwt === undefined ? {} : { jwt }),
    ...(blocked === undefined ? {} : { blocked }),
    ...(rateLimit === undefined ? {} : { rateLimit }),
    ...(fault === undefined ? {} : { fault }),
  };
  return { profile, todo };
}

/**
 * The claims of minted tokens: the admin holds every role the admin endpoint and the writes ask for and every
 * scope of the flow; the user and the throw-away identity hold the scopes no write and no admin operation asks
 * for, and no role.
 */
function addJwtClaims(
  identities: Record<string, Json>,
  flowScopes: readonly string[],
  admin: Operation | undefined,
  operations: readonly Operation[],
): void {
  const privileged = new Set([
    ...(admin?.needs ?? []),
    ...operations.filter((o) => o.method !== 'get').flatMap((o) => o.needs),
  ]);
  const roles = [...privileged].filter((n) => !flowScopes.includes(n));
  const plain = flowScopes.filter((s) => !privileged.has(s)).join(' ');
  for (const [name, id] of Object.entries(identities))
    id.jwtClaims =
      name === 'admin'
        ? { sub: `gatecheck-${name}`, roles, scope: flowScopes.join(' ') }
        : { sub: `gatecheck-${name}`, roles: [], scope: plain };
}
