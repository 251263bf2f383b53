/**
 * The identities' credentials for every scheme the operations on the profile's server accept — environment
 * references (credentials.ts), a token the suite fetches for a client-credentials or password flow — and the
 * sections the document's `x-gatecheck-*` extensions add beside them (jwt, rateLimit, fault, blocked).
 */
import { identity } from './credentials.ts';
import {
  blockedFromDocument,
  faultFromDocument,
  jwtFromDocument,
  rateLimitFromDocument,
} from './document-extensions.ts';
import type { Operation } from './operations.ts';
import type { Pick } from './picks.ts';
import type { Carrier, ProfileScheme } from './security.ts';

type Json = Record<string, unknown>;

const SCHEMES: readonly ProfileScheme[] = ['bearer', 'basic', 'apikey'];

/** What identitiesStep needs of the document's reading. */
export interface CarriersAndOperations {
  readonly kept: ReadonlyMap<string, Carrier>;
  readonly operations: readonly Operation[];
}

/** The schemes the profile's endpoints send (`schemes`, a collection's `writeSchemes`, a rate limit's endpoint's). */
function schemesSent(sections: readonly unknown[]): Set<ProfileScheme> {
  const out = new Set<ProfileScheme>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const v of value) walk(v);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    for (const [k, v] of Object.entries(value)) {
      if ((k === 'schemes' || k === 'writeSchemes') && Array.isArray(v)) {
        for (const s of v) if (SCHEMES.includes(s)) out.add(s);
      } else walk(v);
    }
  };
  walk(sections);
  return out;
}

/**
 * Step 6: credentials for every scheme an endpoint of the profile takes — never for one only other operations
 * take (issue #69: Basic variables asked for where no endpoint takes Basic stopped the run until set, then ran
 * Basic rules against endpoints that do not take it) — and the sections beside.
 */
export function identitiesStep(
  doc: Json,
  reading: CarriersAndOperations,
  endpoints: Json,
  picks: { prot: Pick | undefined; admin: Pick | undefined },
  todo: string[],
): Json {
  const { kept, operations } = reading;
  const bearers = [...kept.values()].filter((c) => c.scheme === 'bearer');
  const flowScopes = [...new Set(bearers.flatMap((c) => (c.flow === undefined ? [] : c.scopes)))];
  const adminScope = flowScopes.length > 0 ? flowScopes.join(' ') : undefined;
  const rateLimit = rateLimitFromDocument(
    doc,
    todo,
    (path, method) =>
      operations.find((o) => o.path === path && o.method === method.toLowerCase())?.access.schemes,
  );
  const used = schemesSent([endpoints, rateLimit]);
  const schemes = SCHEMES.filter((s) => used.has(s));
  const identities: Record<string, Json> = {
    admin: identity('admin', schemes, bearers, adminScope),
    user: identity('user', schemes, bearers, undefined),
    ...(rateLimit === undefined ? {} : { ratelimit: identity('ratelimit', schemes, bearers, undefined) }),
  };
  credentialTodo(schemes, bearers, kept, todo);
  if (rateLimit !== undefined)
    todo.push(
      '/identities/ratelimit: a throw-away identity the rate-limit rules exhaust (the target may ban it); give it credentials of its own',
    );
  const jwt = jwtFromDocument(doc, todo);
  if (jwt !== undefined) {
    addJwtClaims(identities, flowScopes, { admin: picks.admin?.op, prot: picks.prot?.op }, operations);
    todo.push(
      '/identities/*/jwtClaims: the claims of the tokens the suite mints (sub, roles, scope) are guessed; use the names your target reads',
    );
  }
  const fault = faultFromDocument(
    doc,
    picks.prot === undefined ? undefined : { path: picks.prot.op.address, method: picks.prot.op.method },
  );
  const blocked = blockedFromDocument(doc);
  if (adminScope)
    todo.push(`/identities/admin/token/oauth2/scope: asks for every scope of the flow (${adminScope})`);
  const apikey = [...kept.values()].find((c) => c.scheme === 'apikey');
  return {
    identities,
    ...(apikey !== undefined && schemes.includes('apikey') ? { apikeyScheme: apikey.word ?? 'Apikey' } : {}),
    ...(jwt === undefined ? {} : { jwt }),
    ...(blocked === undefined ? {} : { blocked }),
    ...(rateLimit === undefined ? {} : { rateLimit }),
    ...(fault === undefined ? {} : { fault }),
  };
}

/** What the identities' credentials rest on, said once: a token to fetch by hand, a key's scheme word. */
function credentialTodo(
  schemes: readonly ProfileScheme[],
  bearers: readonly Carrier[],
  kept: ReadonlyMap<string, Carrier>,
  todo: string[],
): void {
  if (schemes.includes('bearer') && !bearers.some((c) => c.flow !== undefined)) {
    const interactive = bearers.filter((c) => c.interactive !== undefined);
    if (interactive.length > 0)
      todo.push(
        `/identities/*/bearer: ${interactive.map((c) => `${c.name}'s tokens come from ${c.interactive}`).join('; ')} — a flow a person completes: get a token for each identity and set its variable`,
      );
  }
  for (const c of kept.values())
    if (c.wordFrom !== undefined && c.scheme !== 'apikey' && schemes.includes(c.scheme as ProfileScheme))
      todo.push(`/identities/*/${c.scheme}: security scheme ${c.name} is ${c.why}; confirm it`);
  const key = [...kept.values()].find((c) => c.scheme === 'apikey');
  if (key === undefined || !schemes.includes('apikey')) return;
  todo.push(
    key.word === undefined
      ? `/apikeyScheme: the document does not say which word goes before the key of security scheme ${key.name} in Authorization (${key.said === undefined ? 'it has no description' : `its description reads: "${key.said}"`}); Apikey assumed — set the target's (Token, SSWS, "MediaBrowser Token" for MediaBrowser Token="<key>", "Token token=" for Token token=<key>, or "" for the key alone)`
      : key.word === ''
        ? `/apikeyScheme: "" — the key alone, no word before it, as security scheme ${key.name} states it (${key.wordFrom}${key.said === undefined ? '' : `: "${key.said}"`}); confirm it`
        : `/apikeyScheme: "${key.word}", as security scheme ${key.name} states it (${key.wordFrom}); confirm it`,
  );
}

/**
 * The claims of minted tokens: the admin holds every name an operation asks for — the flow's scopes as
 * `scope`, the rest (OpenAPI 3.1 role names on other schemes, scopes of a flow the suite cannot use) as
 * `roles`; the user and the throw-away identity hold the scopes no write and no admin operation asks for, and
 * what the protected read asks for (init states both identities may read it: DigitalOcean's `tag:read` on an
 * `http` bearer scheme), no other role.
 */
function addJwtClaims(
  identities: Record<string, Json>,
  flowScopes: readonly string[],
  picked: { readonly admin: Operation | undefined; readonly prot: Operation | undefined },
  operations: readonly Operation[],
): void {
  const privileged = new Set([
    ...(picked.admin?.access.needs ?? []),
    ...operations.filter((o) => o.method !== 'get').flatMap((o) => o.access.needs),
  ]);
  const named = new Set([...privileged, ...operations.flatMap((o) => o.access.needs)]);
  const roles = [...named].filter((n) => !flowScopes.includes(n));
  const read = picked.prot?.access.needs ?? [];
  const userRoles = read.filter((n) => !flowScopes.includes(n));
  const plain = [
    ...new Set([
      ...flowScopes.filter((s) => !privileged.has(s)),
      ...read.filter((n) => flowScopes.includes(n)),
    ]),
  ].join(' ');
  for (const [name, id] of Object.entries(identities))
    id.jwtClaims =
      name === 'admin'
        ? { sub: `gatecheck-${name}`, roles, scope: flowScopes.join(' ') }
        : { sub: `gatecheck-${name}`, roles: userRoles, scope: plain };
}
