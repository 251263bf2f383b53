/**
 * The methods each declared path supports (RFC 9110 §10.2.1: Allow lists "the set of methods advertised as
 * supported by the target resource"), as the profile states them (`methods`, docs/profile.md) or, for a path
 * it does not list, as its endpoints imply: each endpoint's method (GET by default), POST on a collection
 * with writes. The method an endpoint names in `methodNotAllowed` is refused, never supported.
 */
import { rateLimitEndpoints } from './rate-policy.ts';
import type { Endpoint, Profile } from './types.ts';

export interface PathMethods {
  readonly path: string;
  /** Upper-case method names (RFC 9110 §9.1: method names are case-sensitive; the standard ones are upper-case). */
  readonly methods: ReadonlySet<string>;
  /** Stated by the profile's `methods` (exact), not derived from its endpoints (a lower bound). */
  readonly stated: boolean;
}

/** Path without the query. */
export function pathOf(path: string): string {
  const q = path.indexOf('?');
  return q === -1 ? path : path.slice(0, q);
}

export function supportedMethods(profile: Profile): Map<string, PathMethods> {
  const derived = new Map<string, Set<string>>();
  const add = (path: string, method: string) => {
    const p = pathOf(path);
    const set = derived.get(p) ?? new Set<string>();
    set.add(method.toUpperCase());
    derived.set(p, set);
  };
  const { public: pub, protected: prot, admin, collection } = profile.endpoints;
  const declared: (Endpoint | undefined)[] = [pub, prot, admin, ...rateLimitEndpoints(profile)];
  for (const endpoint of declared) if (endpoint) add(endpoint.path, endpoint.method ?? 'GET');
  if (profile.fault) add(profile.fault.path, profile.fault.method ?? 'GET');
  if (collection?.writeSchemes?.length) add(collection.path, 'POST');
  const out = new Map<string, PathMethods>();
  for (const [path, methods] of derived) out.set(path, { path, methods, stated: false });
  for (const [path, methods] of Object.entries(profile.methods ?? {})) {
    out.set(path, { path, methods: new Set(methods.map((m) => m.toUpperCase())), stated: true });
  }
  return out;
}

/** RFC 9110 §10.2.1: Allow = #method; method = token. Undefined when the value is not such a list. */
export function parseAllow(value: string): string[] | undefined {
  const items = value.split(',').map((m) => m.trim());
  const methods = items.filter(Boolean);
  if (!methods.every((m) => /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(m))) return undefined;
  return methods;
}
