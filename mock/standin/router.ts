/**
 * The document's paths compiled into the pipeline's Router (mock/routing/router.ts): one route per path
 * template (OpenAPI 3.1 §4.8.8 Paths Object), holding a rule per method the document defines; HEAD follows
 * GET, OPTIONS is always answered, any other method → 405 with Allow (RFC 9110 §15.5.6); a path no template
 * matches → 404. Templates are matched segment by segment, a literal segment before a parameter (§4.8.8:
 * "concrete path" first), so `/users/me` wins over `/users/{id}`.
 */
import { problem } from '../http/problem.ts';
import { type AccessRule, type Match, optionsAnswer, type Route, type Router } from '../routing/router.ts';

interface Node {
  readonly literal: Map<string, Node>;
  /** Segments with parameters, whole (`{id}`) or in part (`{name}.json`), as patterns. */
  readonly dynamic: { readonly pattern: RegExp; readonly node: Node }[];
  route: Route | undefined;
}

const node = (): Node => ({ literal: new Map(), dynamic: [], route: undefined });

const ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function segmentPattern(segment: string): RegExp {
  const source = segment
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '([^/]+)' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

export interface TemplateRoute {
  /** The template as served: the server's path prefix and the document's path (`/api/v3/pet/{petId}`). */
  readonly template: string;
  /** The data resource it belongs to (the served template; the data is keyed by collection, store.ts). */
  readonly resource: string;
  readonly rules: ReadonlyMap<string, AccessRule>;
}

function route(spec: TemplateRoute): Route {
  const rules = new Map(spec.rules);
  const get = rules.get('GET');
  if (get !== undefined) rules.set('HEAD', get);
  const allow = [...ORDER.filter((m) => rules.has(m)), ...(get ? ['HEAD'] : []), 'OPTIONS'].join(', ');
  return {
    pattern: spec.template,
    resource: spec.resource,
    kind: 'collection',
    rules,
    allow,
    methodNotAllowed: problem('method-not-allowed', `${spec.template} answers ${allow}.`, { allow }),
    options: optionsAnswer(allow, '*'),
  };
}

export function compileTemplates(specs: readonly TemplateRoute[]): Router {
  const root = node();
  const routes: Route[] = [];
  for (const spec of specs) {
    let at = root;
    for (const segment of spec.template.split('/').slice(1)) {
      if (!segment.includes('{')) {
        let next = at.literal.get(segment);
        if (next === undefined) {
          next = node();
          at.literal.set(segment, next);
        }
        at = next;
        continue;
      }
      const pattern = segmentPattern(segment);
      let found = at.dynamic.find((d) => d.pattern.source === pattern.source);
      if (found === undefined) {
        found = { pattern, node: node() };
        at.dynamic.push(found);
      }
      at = found.node;
    }
    // Two templates that differ only in their parameters' names are one path (§4.8.8): their methods merge.
    const made = route(
      at.route === undefined
        ? spec
        : { ...spec, template: at.route.pattern, rules: new Map([...at.route.rules, ...spec.rules]) },
    );
    if (at.route !== undefined) routes.splice(routes.indexOf(at.route), 1);
    at.route = made;
    routes.push(made);
  }

  const walk = (at: Node, segments: readonly string[], i: number): Route | undefined => {
    if (i === segments.length) return at.route;
    const segment = segments[i] as string;
    const literal = at.literal.get(segment);
    if (literal !== undefined) {
      const found = walk(literal, segments, i + 1);
      if (found !== undefined) return found;
    }
    if (segment === '') return undefined;
    for (const { pattern, node: next } of at.dynamic)
      if (pattern.test(segment)) {
        const found = walk(next, segments, i + 1);
        if (found !== undefined) return found;
      }
    return undefined;
  };

  return {
    routes,
    match(path: string): Match | undefined {
      if (path.charCodeAt(0) !== 47) return undefined;
      const found = walk(root, path.split('/'), 1);
      return found === undefined ? undefined : { route: found, id: undefined };
    },
  };
}
