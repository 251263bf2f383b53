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
import { isObject } from './document-extensions.ts';
import { methodNotAllowed, type Refuted, readEndpoints } from './endpoints-section.ts';
import { identitiesStep } from './identities-section.ts';
import { type Operation, readOperations } from './operations.ts';
import { rateLimitedOperations } from './picks.ts';
import { type Carrier, keepOneKindEach, readCarriers, requirementsOf } from './security.ts';
import { chooseServer, type Server, type ServerChoice, serverOf } from './servers.ts';
import { examples, plural } from './todo-text.ts';

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
  /** Picks the target's answers contradicted (`--probe`): each is replaced by the next candidate. */
  readonly refuted?: Refuted;
}

export interface InitResult {
  readonly profile: Json;
  readonly todo: string[];
  /** The item the write rules will POST, when a collection was picked. */
  readonly sampleItem: unknown;
  /** The success statuses the document declares for the public, protected and admin reads picked. */
  readonly declared: Readonly<Partial<Record<'public' | 'protected' | 'admin', readonly number[]>>>;
}

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
  const chosen = server?.written === String(choice.raw?.url);
  if (choice.warned.length > 0 && chosen)
    todo.push(
      `/baseUrl: passed over — ${choice.warned.join('; ')}: the document says not to use ${choice.warned.length === 1 ? 'it' : 'them'}`,
    );
  if (choice.withheld !== undefined && chosen && server?.url !== undefined)
    todo.push(
      `/baseUrl: left out — the document's server ${server.url} says "${choice.withheld}": give the target's URL as baseUrl or --base-url${new URL(server.url).pathname.length > 1 ? ` (keep its path ${new URL(server.url).pathname})` : ''}; \`gatecheck init --server <n|url>\` takes it as it is`,
    );
  else if (server?.url !== undefined)
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
  const picks = readEndpoints(ops, rateLimited, prefix, endpoints, todo, input.refuted);
  const collection = collectionSection(ops, input.writes === true, todo);
  if (collection.endpoint !== undefined) endpoints.collection = collection.endpoint;
  methodNotAllowed(picks.prot, reading.operations, endpoints, todo);
  const sections = identitiesStep(doc, reading, endpoints, picks, todo);
  baseUrlTodo(server, choice, todo);

  const info = isObject(doc.info) ? doc.info : {};
  const profile: Json = {
    $schema: './node_modules/gatecheck/fixtures/schemas/profile.schema.json',
    name: typeof info.title === 'string' && info.title !== '' ? info.title : 'target',
    todo,
    ...(server?.url === undefined ||
    (choice.withheld !== undefined && server.written === String(choice.raw?.url))
      ? {}
      : { baseUrl: server.url }),
    endpoints,
    ...sections,
  };
  const declared = {
    ...(picks.pub === undefined ? {} : { public: picks.pub.op.successes }),
    ...(picks.prot === undefined ? {} : { protected: picks.prot.op.successes }),
    ...(picks.admin === undefined ? {} : { admin: picks.admin.op.successes }),
  };
  return { profile, todo, sampleItem: collection.sampleItem, declared };
}
