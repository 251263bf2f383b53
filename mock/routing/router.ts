/**
 * The policy compiled once at start-up into what the hot path needs: a Map lookup from path to route, and per
 * route a Map from method to its access rule, with the Allow header, the 401 challenges and the 405 and
 * OPTIONS replies already built. Matching a request allocates nothing for `/name` paths and one small object
 * for `/name/:id`.
 */

import type { Scheme } from '../auth/types.ts';
import { challenge } from '../http/challenge.ts';
import { problem } from '../http/problem.ts';
import { BASE_HEADERS, type Reply } from '../http/reply.ts';
import type { ResourceEngine, ResourceKind } from '../resources/types.ts';
import { ConfigError } from '../util/config-error.ts';
import { type Access, POLICY_METHODS, type Policy, type PolicyMethod } from './policy.ts';

/** What the handler does with the resource. */
export type Operation = 'list' | 'read' | 'create' | 'replace' | 'patch' | 'remove';

export interface AccessRule {
  readonly public: boolean;
  /** Closed to everyone: the access stage answers 403 before credentials (policy value `"closed"`). */
  readonly closed: boolean;
  readonly schemes: readonly Scheme[];
  /** Any one of these roles (empty: no role needed). */
  readonly roles: readonly string[];
  /** All of these scopes (empty: no scope needed). */
  readonly scopes: readonly string[];
  /** One plain challenge per accepted scheme, in policy order: the 401 answer to missing credentials. */
  readonly challenges: readonly string[];
  readonly operation: Operation;
}

export interface Route {
  /** The policy pattern, e.g. `/users/:id`. */
  readonly pattern: string;
  /** Top-level key of the data. */
  readonly resource: string;
  readonly kind: ResourceKind;
  /** Rules by method; HEAD shares GET's rule. */
  readonly rules: ReadonlyMap<string, AccessRule>;
  /** RFC 9110 §10.2.1: every method the route answers, HEAD and OPTIONS included. */
  readonly allow: string;
  /** RFC 9110 §15.5.6: 405 MUST carry Allow. */
  readonly methodNotAllowed: Reply;
  /** 204 with Allow, and the CORS preflight answer. */
  readonly options: Reply;
}

export interface Match {
  readonly route: Route;
  /** Percent-decoded `:id`; undefined for `/name` routes. */
  readonly id: string | undefined;
}

export interface Router {
  /** `path` is the request path without the query string, as received (not decoded). */
  match(path: string): Match | undefined;
  readonly routes: readonly Route[];
}

/** Which operation each method performs, per shape of route (json-server's REST model). */
const OPERATIONS: Readonly<Record<string, Partial<Record<PolicyMethod, Operation>>>> = {
  collection: { GET: 'list', POST: 'create' },
  item: { GET: 'read', PUT: 'replace', PATCH: 'patch', DELETE: 'remove' },
  singular: { GET: 'list', PUT: 'replace', PATCH: 'patch' },
};

/** Checks the policy against the data (every route names a resource that exists, every method makes sense). */
export function compileRouter(policy: Policy, engine: ResourceEngine, realm: string): Router {
  const whole = new Map<string, Match>();
  const items = new Map<string, Route>();
  const routes: Route[] = [];
  const seen = new Map<string, number>();

  policy.routes.forEach((spec, index) => {
    const where = `policy.routes[${index}]`;
    const earlier = seen.get(spec.path);
    if (earlier !== undefined) throw new ConfigError(`${where}.path: duplicate of policy.routes[${earlier}]`);
    seen.set(spec.path, index);

    const hasId = spec.path.endsWith('/:id');
    const resource = (!hasId && spec.resource) || spec.path.slice(1, hasId ? -4 : undefined);
    // A route closed for every method never reaches the data (the access stage answers 403 first, seed §7
    // 403 cause 5), so it needs no resource: data files without it keep working with the default policy.
    const closedOnly = Object.values(spec.methods).every((access) => access === 'closed');
    const kind = engine.kindOf(resource) ?? (closedOnly && !hasId ? 'singular' : undefined);
    if (kind === undefined) throw new ConfigError(`${where}.path: the data has no resource "${resource}"`);
    if (hasId && kind === 'singular') {
      throw new ConfigError(`${where}.path: "${resource}" is a singular resource; use /${resource}`);
    }
    const shape = hasId ? 'item' : kind;

    const rules = new Map<string, AccessRule>();
    for (const method of POLICY_METHODS) {
      const access = spec.methods[method];
      if (access === undefined) continue;
      const operation = OPERATIONS[shape]?.[method];
      if (operation === undefined) {
        const allowed = Object.keys(OPERATIONS[shape] ?? {}).join(', ');
        throw new ConfigError(
          `${where}.methods.${method}: not supported on ${describeShape(shape, spec.path)} (supported: ${allowed})`,
        );
      }
      rules.set(method, compileRule(access, operation, realm));
    }
    const get = rules.get('GET');
    if (get !== undefined) rules.set('HEAD', get);

    const allow = [...POLICY_METHODS.filter((m) => rules.has(m)), ...(get ? ['HEAD'] : []), 'OPTIONS'].join(
      ', ',
    );
    const route: Route = {
      pattern: spec.path,
      resource,
      kind,
      rules,
      allow,
      methodNotAllowed: problem('method-not-allowed', `${spec.path} answers ${allow}.`, { allow }),
      options: optionsAnswer(allow),
    };
    routes.push(route);
    if (hasId) items.set(resource, route);
    else whole.set(spec.path, { route, id: undefined });
  });

  return {
    routes,
    match(path: string): Match | undefined {
      const exact = whole.get(path);
      if (exact !== undefined) return exact;
      // `/name/:id`: exactly two segments, the second non-empty.
      const slash = path.indexOf('/', 1);
      if (slash === -1 || slash === path.length - 1 || path.indexOf('/', slash + 1) !== -1) return undefined;
      const route = items.get(path.slice(1, slash));
      if (route === undefined) return undefined;
      return { route, id: decodeSegment(path.slice(slash + 1)) };
    },
  };
}

function compileRule(access: Access, operation: Operation, realm: string): AccessRule {
  if (access === 'public')
    return { public: true, closed: false, schemes: [], roles: [], scopes: [], challenges: [], operation };
  if (access === 'closed')
    return { public: false, closed: true, schemes: [], roles: [], scopes: [], challenges: [], operation };
  return {
    public: false,
    closed: false,
    schemes: access.schemes,
    roles: access.roles ?? [],
    scopes: access.scopes ?? [],
    challenges: access.schemes.map((scheme) => challenge(scheme, realm)),
    operation,
  };
}

function describeShape(shape: string, path: string): string {
  if (shape === 'item') return `an item path (${path})`;
  return `a ${shape} resource (${path})`;
}

/**
 * An id that is not valid percent-encoding cannot name an item; it is kept as received, matches nothing, and
 * the handler answers 404 — after credentials, as the order of checks requires for a protected route.
 */
function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * A route's answer to OPTIONS (RFC 9110 §9.3.7): 204 with `Allow`, and a CORS preflight's headers (Fetch
 * standard). Authorization is never covered by a wildcard, so it is named; `otherHeaders` (`*`) lets a
 * stand-in's document's own key headers through too.
 */
export function optionsAnswer(allow: string, otherHeaders = ''): Reply {
  return {
    status: 204,
    headers: {
      ...BASE_HEADERS,
      allow,
      'access-control-allow-methods': allow,
      'access-control-allow-headers': `${otherHeaders ? `${otherHeaders}, ` : ''}Authorization, Content-Type`,
      'access-control-max-age': '600',
    },
    body: undefined,
  };
}
