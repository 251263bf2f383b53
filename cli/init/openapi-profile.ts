/**
 * From a dereferenced OpenAPI 3.0/3.1 document to a starting profile (docs/package.md "gatecheck init").
 * Pure: the document in, the profile, its to-do list and the variables it names out. What the document
 * states is taken as it states it — security requirements (security.ts), servers (servers.ts), parameters
 * and responses (operations.ts); every choice it leaves open is made as a QA engineer would (picks.ts,
 * writes.ts) and written into the profile's `todo` list with the reason, naming the field. What the profile
 * cannot express is left out and named, never replaced by a weaker claim.
 */

import { X_RATE_LIMIT } from '../../shared/openapi-extensions.ts';
import { collectionSection } from './collection-section.ts';
import { identity } from './credentials.ts';
import {
  blockedFromDocument,
  faultFromDocument,
  isObject,
  jwtFromDocument,
  rateLimitFromDocument,
} from './document-extensions.ts';
import { inputsOf, type Operation, readOperations } from './operations.ts';
import {
  type Pick,
  pickAdmin,
  pickProtected,
  pickPublic,
  rateLimitedOperations,
  unusableAdmin,
} from './picks.ts';
import {
  type Carrier,
  keepOneKindEach,
  type ProfileScheme,
  readCarriers,
  requirementsOf,
} from './security.ts';
import { chooseServer, type Server, type ServerChoice, serverOf } from './servers.ts';

type Json = Record<string, unknown>;

export interface InitInput {
  /** Where the document was read from: an http(s) URL resolves relative servers; a file does not. */
  readonly documentUrl?: string;
  /** Pick a collection for the write rules (`--writes`). */
  readonly writes?: boolean;
  /** What reading the document found (a conversion, dangling references): the to-do list starts with them. */
  readonly notes?: readonly string[];
  /** `--server <n|url>`: which of the document's servers is the baseUrl. */
  readonly server?: string;
}

export interface InitResult {
  readonly profile: Json;
  readonly todo: string[];
  /** The item the write rules will POST, when a collection was picked. */
  readonly sampleItem: unknown;
}

const SCHEMES: readonly ProfileScheme[] = ['bearer', 'basic', 'apikey'];
const MISSING = '/gatecheck-no-such-path';
/** At most this many examples in a to-do line that names a group of operations. */
const EXAMPLES = 3;

const line = (o: Operation) => `${o.method.toUpperCase()} ${o.path}`;
const examples = (ops: readonly Operation[]) =>
  `${ops.slice(0, EXAMPLES).map(line).join(', ')}${ops.length > EXAMPLES ? `, … ${ops.length - EXAMPLES} more` : ''}`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** How many operations name each scheme alone in one of their alternatives. */
function usesOf(doc: Json): Map<string, number> {
  const uses = new Map<string, number>();
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const item of Object.values(paths))
    if (isObject(item))
      for (const op of Object.values(item))
        if (isObject(op))
          for (const r of requirementsOf(doc, op) ?? []) {
            const names = Object.keys(r);
            if (names.length === 1) uses.set(names[0] as string, (uses.get(names[0] as string) ?? 0) + 1);
          }
  return uses;
}

/** The server most operations are sent to; the others are left out (the profile has one baseUrl). */
function mainServer(
  choice: ServerChoice,
  ops: readonly Operation[],
  documentUrl: string | undefined,
): Server | undefined {
  const documentServer = serverOf(
    [choice.raw === undefined ? undefined : [choice.raw], [{ url: '/' }]],
    documentUrl,
  );
  if (documentServer !== undefined && ops.some((o) => o.server?.written === documentServer.written))
    return documentServer;
  const counts = new Map<string, { server: Server | undefined; n: number }>();
  for (const o of ops) {
    const key = o.server?.written ?? '';
    counts.set(key, { server: o.server, n: (counts.get(key)?.n ?? 0) + 1 });
  }
  return [...counts.values()].sort((a, b) => b.n - a.n)[0]?.server ?? documentServer;
}

function schemesTodo(
  carriers: ReadonlyMap<string, Carrier>,
  dropped: readonly Carrier[],
  ops: readonly Operation[],
  todo: string[],
): void {
  for (const c of [...carriers.values()].filter((c) => c.scheme === undefined).concat(dropped)) {
    const only = ops.filter(
      (o) =>
        !o.access.public &&
        o.access.schemes.length === 0 &&
        o.access.inexpressible.some((d) => d.startsWith(`{${c.name}}`)),
    );
    todo.push(
      `security scheme ${c.name} (${c.why}): not sent the way the profile sends credentials; left out${only.length ? ` — ${plural(only.length, 'operation')} accept nothing else (${examples(only)})` : ''}`,
    );
  }
  const together = new Map<string, Operation[]>();
  for (const o of ops)
    if (!o.access.public && o.access.schemes.length === 0)
      for (const d of o.access.inexpressible.filter((d) => d.includes(' + ')))
        together.set(d, [...(together.get(d) ?? []), o]);
  for (const [requirement, list] of together)
    todo.push(
      `security requirement ${requirement} on ${plural(list.length, 'operation')} (${examples(list)}): the profile sends one scheme per request, so it cannot claim these; left out`,
    );
}

/** What the document's security says, read once: carriers kept and dropped, and every operation weighed. */
interface Reading {
  readonly carriers: Map<string, Carrier>;
  readonly kept: Map<string, Carrier>;
  readonly dropped: Carrier[];
  readonly operations: Operation[];
}

function readDocument(doc: Json, documentUrl: string | undefined, choice: ServerChoice): Reading {
  const carriers = readCarriers(doc);
  const { kept, dropped } = keepOneKindEach(carriers, usesOf(doc));
  const all = new Map(carriers);
  for (const d of dropped) all.set(d.name, d);
  return { carriers, kept, dropped, operations: readOperations(doc, documentUrl, kept, all, choice.raw) };
}

/** Step 1: what the document's security leaves unsaid or unsendable, said first. */
function securityTodo(doc: Json, reading: Reading, todo: string[]): void {
  const noSecurity =
    !Array.isArray(doc.security) && reading.operations.every((o) => !Array.isArray(o.raw.security));
  if (noSecurity)
    todo.push(
      'security: the document states no security requirement at all, so by OpenAPI every operation is public — rarely so for a real API; init calls an operation public only on that reading: confirm it, and add the protected and admin endpoints the document does not name',
    );
  schemesTodo(reading.carriers, reading.dropped, reading.operations, todo);
}

/** Step 2: the server the profile's baseUrl is, and the operations sent to it. */
function serverStep(
  choice: ServerChoice,
  operations: readonly Operation[],
  documentUrl: string | undefined,
  todo: string[],
): { server: Server | undefined; ops: Operation[] } {
  const server = mainServer(choice, operations, documentUrl);
  const elsewhere = operations.filter((o) => o.server?.written !== server?.written);
  if (elsewhere.length > 0)
    todo.push(
      `${plural(elsewhere.length, 'operation')} are sent to another server than ${server?.url ?? server?.written ?? 'the document’s'} (${examples(elsewhere)}, at ${elsewhere[0]?.server?.url ?? elsewhere[0]?.server?.written ?? 'the document’s server'}): the profile has one baseUrl; left out`,
    );
  return { server, ops: operations.filter((o) => o.server?.written === server?.written) };
}

const schemesOf = (o: Operation) => [...o.access.schemes];

/** The to-do line for the inputs an endpoint carries, or nothing. */
function inputsTodo(field: string, op: Operation, todo: string[]): void {
  if (op.inputs.notes.length === 0) return;
  todo.push(
    `/endpoints/${field}: ${op.method.toUpperCase()} ${op.path} requires ${op.inputs.notes.join(', ')}; carried in the endpoint's query/headers and sent by every check on it — confirm the values`,
  );
}

/** Step 3: the public, protected, admin and missing endpoints, each with its reason. */
function readEndpoints(
  ops: readonly Operation[],
  rateLimited: ReadonlySet<string>,
  prefix: string,
  endpoints: Json,
  todo: string[],
): { prot: Pick | undefined; admin: Pick | undefined } {
  const mark = (field: string, pick: Pick, extra = '') =>
    todo.push(
      `/endpoints/${field}: ${pick.op.method.toUpperCase()} ${pick.op.address} — ${pick.reason}${extra}`,
    );

  const pub = pickPublic(ops, rateLimited);
  if (pub) {
    endpoints.public = { path: pub.op.address, method: pub.op.method.toUpperCase(), ...inputsOf(pub.op) };
    mark('public', pub, '; it must answer 200 without credentials');
    inputsTodo('public', pub.op, todo);
  } else
    todo.push(
      '/endpoints/public: the document has no public read init can send as it is; add one if the target has it',
    );

  const prot = pickProtected(ops, rateLimited);
  if (prot) {
    endpoints.protected = {
      path: prot.op.address,
      method: prot.op.method.toUpperCase(),
      schemes: schemesOf(prot.op),
      ...inputsOf(prot.op),
    };
    mark('protected', prot, '; both the admin and the user identity must be allowed it');
    inputsTodo('protected', prot.op, todo);
  } else {
    const guardedGets = ops.filter(
      (o) => !o.access.public && o.access.schemes.length > 0 && o.method === 'get',
    );
    const waiting = guardedGets.filter((o) => o.unfilled.length > 0);
    const needing = guardedGets.filter((o) => o.unfilled.length === 0 && o.requiredExtras.length > 0);
    todo.push(
      `/endpoints/protected: no read that needs credentials can be sent as the document describes it${waiting.length ? `; ${plural(waiting.length, 'GET')} wait for path parameters the document gives no value for (${examples(waiting)}: ${[...new Set(waiting.flatMap((o) => o.unfilled))].slice(0, 5).join(', ')})` : ''}${needing.length ? `; ${plural(needing.length, 'GET')} require parameters the document gives no value for (${examples(needing)}: ${[...new Set(needing.flatMap((o) => o.requiredExtras))].slice(0, 5).join(', ')})` : ''}`,
    );
  }
  for (const p of [pub, prot])
    if (p?.op.filled.length)
      todo.push(
        `${p.op.method.toUpperCase()} ${p.op.path}: path parameters ${p.op.filled.join(', ')}; confirm the item exists`,
      );

  const { pick: admin, runnerUp } = pickAdmin(ops, prot?.op, rateLimited);
  if (admin) {
    endpoints.admin = {
      path: admin.op.address,
      method: admin.op.method.toUpperCase(),
      schemes: schemesOf(admin.op),
      ...inputsOf(admin.op),
    };
    mark(
      'admin',
      admin,
      `; runner-up: ${runnerUp ? `${runnerUp.op.method.toUpperCase()} ${runnerUp.op.address} (${runnerUp.reason})` : 'none'}; confirm the user identity gets 403 there`,
    );
    inputsTodo('admin', admin.op, todo);
  }
  const unusable = unusableAdmin(ops, admin?.op, rateLimited);
  const unusableText = unusable
    .slice(0, EXAMPLES)
    .map((u) => `${line(u.op)} (${u.why})`)
    .join('; ');
  if (!admin)
    todo.push(
      unusable.length === 0
        ? '/endpoints/admin: no read the document marks as an administrator’s (path, tag, description, x- marker, scope or role); add one if the target has it'
        : `/endpoints/admin: the document marks ${plural(unusable.length, 'operation')} as an administrator’s, none usable as the admin read: ${unusableText}${unusable.length > EXAMPLES ? `; … ${unusable.length - EXAMPLES} more` : ''}; add one the target has`,
    );
  else if (unusable.some((u) => u.why.includes('applies only with query')))
    todo.push(
      `/endpoints/admin: left out for query-dependent admin wording — ${unusable
        .filter((u) => u.why.includes('applies only with query'))
        .slice(0, EXAMPLES)
        .map((u) => `${line(u.op)} (${u.why})`)
        .join('; ')}`,
    );

  endpoints.missing = { path: `${prefix}${MISSING}` };
  return { prot, admin };
}

/** Step 5: 405 — a method the document does not define on the protected path (RFC 9110 §15.5.6). */
function methodNotAllowed(
  prot: Pick | undefined,
  operations: readonly Operation[],
  endpoints: Json,
  todo: string[],
): void {
  if (!prot) return;
  const defined = new Set(operations.filter((o) => o.path === prot.op.path).map((o) => o.method));
  const absent = (['delete', 'put', 'patch', 'post', 'get'] as const).find((m) => !defined.has(m));
  if (!absent) return;
  endpoints.methodNotAllowed = {
    path: prot.op.address,
    method: absent.toUpperCase(),
    schemes: schemesOf(prot.op),
  };
  todo.push(
    `/endpoints/methodNotAllowed: the document defines no ${absent.toUpperCase()} ${prot.op.path}; confirm the target answers 405`,
  );
}

/** Step 6: credentials for every scheme the operations on the profile's server accept, and the sections beside. */
function identitiesStep(
  doc: Json,
  reading: Reading,
  ops: readonly Operation[],
  picks: { prot: Pick | undefined; admin: Pick | undefined },
  todo: string[],
): Json {
  const { kept, operations } = reading;
  const used = new Set<ProfileScheme>(ops.flatMap(schemesOf));
  const schemes = SCHEMES.filter((s) => used.has(s));
  const bearers = [...kept.values()].filter((c) => c.scheme === 'bearer');
  const flowScopes = [...new Set(bearers.flatMap((c) => (c.flow === undefined ? [] : c.scopes)))];
  const adminScope = flowScopes.length > 0 ? flowScopes.join(' ') : undefined;
  const rateLimit = rateLimitFromDocument(
    doc,
    todo,
    (path, method) =>
      operations.find((o) => o.path === path && o.method === method.toLowerCase())?.access.schemes,
  );
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
    addJwtClaims(identities, flowScopes, picks.admin?.op, operations);
    todo.push(
      '/identities/*/jwtClaims: the claims of the tokens the suite mints (sub, roles, scope) are guessed; use the names your target reads',
    );
  }
  const fault = faultFromDocument(doc, picks.prot?.op.address);
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

/** Step 7: what the baseUrl rests on, which of the document's servers it is, and why. */
function baseUrlTodo(server: Server | undefined, choice: ServerChoice, todo: string[]): void {
  if (choice.listed.length > 1 && choice.raw !== undefined && server?.written === String(choice.raw.url))
    todo.push(
      `/baseUrl: the document lists ${choice.listed.length} servers (${choice.listed.join('; ')}); init took ${choice.number} — ${choice.why}; \`gatecheck init --server <n|url>\` takes another`,
    );
  if (choice.demo && server?.written === String(choice.raw?.url))
    todo.push(
      `/baseUrl: ${String(choice.raw?.url)} is a public demo or placeholder host by its name, somebody else's instance — a conformance run sends invalid credentials and bursts: give your own deployment's URL as baseUrl or --base-url`,
    );
  if (server?.url !== undefined)
    todo.push(
      `/baseUrl: the document's server, ${server.url}${server.notes.length ? ` (${server.notes.join('; ')})` : ''}; BASE_URL or --base-url replaces it whole${new URL(server.url).pathname.length > 1 ? ` — keep its path ${new URL(server.url).pathname}` : ''}`,
    );
  else if (server?.prefix)
    todo.push(
      `/baseUrl: the document's server is relative (${server.written}) and was read from a file: give the target's origin as baseUrl or --base-url; the prefix ${server.prefix} is kept on the paths`,
    );
  else
    todo.push(
      `/baseUrl: ${server?.written === '/' ? "the document names no server, which OpenAPI reads as the document's own location, and it was read from a file" : server?.written === '' ? "the document's server has an empty url, which OpenAPI reads as the document's own location, and it was read from a file" : `the document's server ${server?.written ?? ''} cannot be used${server?.notes.length ? ` (${server.notes.join('; ')})` : ''}`}: give the target's URL as baseUrl or --base-url`,
    );
}

export function profileFromOpenApi(doc: Json, input: InitInput = {}): InitResult {
  const todo: string[] = [...(input.notes ?? [])];
  const choice = chooseServer(doc, input.server);
  const reading = readDocument(doc, input.documentUrl, choice);
  securityTodo(doc, reading, todo);
  const { server, ops } = serverStep(choice, reading.operations, input.documentUrl, todo);
  const rateLimited = rateLimitedOperations(doc, X_RATE_LIMIT);
  const prefix = server?.url === undefined ? (server?.prefix ?? '') : '';
  const endpoints: Json = {};
  const picks = readEndpoints(ops, rateLimited, prefix, endpoints, todo);
  const collection = collectionSection(ops, input.writes === true, todo);
  if (collection.endpoint !== undefined) endpoints.collection = collection.endpoint;
  methodNotAllowed(picks.prot, reading.operations, endpoints, todo);
  const sections = identitiesStep(doc, reading, ops, picks, todo);
  baseUrlTodo(server, choice, todo);

  const info = isObject(doc.info) ? doc.info : {};
  const profile: Json = {
    $schema: './node_modules/gatecheck/fixtures/schemas/profile.schema.json',
    name: typeof info.title === 'string' && info.title !== '' ? info.title : 'target',
    todo,
    ...(server?.url === undefined ? {} : { baseUrl: server.url }),
    endpoints,
    ...sections,
  };
  return { profile, todo, sampleItem: collection.sampleItem };
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
      : `/apikeyScheme: "${key.word}", as security scheme ${key.name} states it (${key.wordFrom}); confirm it`,
  );
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
    ...(admin?.access.needs ?? []),
    ...operations.filter((o) => o.method !== 'get').flatMap((o) => o.access.needs),
  ]);
  const roles = [...privileged].filter((n) => !flowScopes.includes(n));
  const plain = flowScopes.filter((s) => !privileged.has(s)).join(' ');
  for (const [name, id] of Object.entries(identities))
    id.jwtClaims =
      name === 'admin'
        ? { sub: `gatecheck-${name}`, roles, scope: flowScopes.join(' ') }
        : { sub: `gatecheck-${name}`, roles: [], scope: plain };
}
