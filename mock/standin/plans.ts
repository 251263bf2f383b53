/**
 * What the mock does for each operation of the document, read once at start-up from init's reading of it
 * (cli/init/operations.ts `readOperations`) and the document's collections (collections.ts):
 * - its role: on a collection's list path, `list` (GET), `create` (POST; PUT answering 201, as Vikunja's),
 *   `clear` (DELETE); on its item path, `read`, `replace` (PUT), `patch` (PATCH, and POST on an item as
 *   Twilio's and OpenAI's updates are), `remove`; elsewhere a `login` (login.ts), the caller's own record
 *   (`current`, current-user.ts), an object that PUT/PATCH change (`singleton`), or `other`: the declared answer;
 * - its success answer as the document declares it — the first 2xx and its media types (media.ts), where the
 *   item is in it (shapes.ts), and the errors it declares (a 404, a 409, a 422 it answers with);
 * - its request body: JSON, validated with its schema compiled at start-up (schema-validator.ts), or the
 *   reason it is not validated; the member wrapping the item, the member carrying the key.
 */
import type { Operation } from '../../cli/init/operations.ts';
import { isRecord } from '../../shared/is-record.ts';
import type { Collection } from './collections.ts';
import { isCurrentUser } from './current-user.ts';
import { answerOf } from './examples.ts';
import { requestKeyMemberOf } from './keys.ts';
import { type LoginPlan, loginOf } from './login.ts';
import { isJsonType, type MediaType, mediaTypesOf } from './media.ts';
import type { Dialect } from './schema-dialect.ts';
import { type Checked, type Compiled, checkSchema, compileSchema } from './schema-validator.ts';
import { type ItemShape, itemShape, type ListShape, listShape, requestWrap } from './shapes.ts';
import { parseTemplate, type Template } from './templates.ts';

type Json = Record<string, unknown>;

export type Role =
  | 'list'
  | 'create'
  | 'clear'
  | 'export'
  | 'read'
  | 'replace'
  | 'patch'
  | 'remove'
  | 'login'
  | 'current'
  | 'singleton'
  | 'other';

export interface RequestPlan {
  /** The document declares a body the mock reads: JSON or a form. */
  readonly json: boolean;
  readonly required: boolean;
  /** Its media types, when it declares some. */
  readonly types: readonly string[];
  readonly schema: Json | undefined;
  /** Whether the schema compiles (its notes, or why not), read once when first asked; undefined without a schema. */
  checked(): Checked | undefined;
  /** The compiled schema, made on first use, or why the body is not validated; undefined without a schema. */
  compiled(): Compiled | undefined;
  /** The member the body wraps the item in (`article`). */
  readonly wrap: string | undefined;
  /** The member of the (unwrapped) body that carries the new item's key (`username`). */
  readonly keyMember: string | undefined;
}

export interface OperationPlan {
  readonly method: string;
  /** The served template (its server's path prefix + the document's path). */
  readonly template: string;
  /** It parsed, to read its parameters' values from a path. */
  readonly served: Template;
  readonly role: Role;
  readonly collection: Collection | undefined;
  readonly status: number;
  /** The success answer's media types, in the document's order. */
  readonly media: readonly MediaType[];
  /** Where the item is in the answer (item roles). */
  readonly item: ItemShape | undefined;
  /** How the list is laid out (list role). */
  readonly list: ListShape | undefined;
  /** Statuses the operation declares. */
  readonly declared: ReadonlySet<number>;
  /** The query parameters it declares, by name. */
  readonly query: readonly string[];
  readonly request: RequestPlan;
  readonly login: LoginPlan | undefined;
  readonly dialect: Dialect;
  /** The answer of a non-collection role, made once on first use (examples.ts). */
  answer(media: MediaType | undefined): unknown;
}

function success(op: Operation): { status: number; response: Json | undefined } {
  const responses = isRecord(op.raw.responses) ? op.raw.responses : {};
  const code = Object.keys(responses)
    .filter((c) => /^2(\d\d|XX)$/i.test(c))
    .sort()[0];
  const status = code === undefined || /XX$/i.test(code) ? 200 : Number(code);
  const response = code === undefined ? responses.default : responses[code];
  return { status, response: isRecord(response) ? response : undefined };
}

function declaredOf(op: Operation): Set<number> {
  const responses = isRecord(op.raw.responses) ? op.raw.responses : {};
  return new Set(
    Object.keys(responses)
      .filter((c) => /^\d{3}$/.test(c))
      .map(Number),
  );
}

export function queryOf(doc: Json, op: Operation): string[] {
  const item = isRecord(doc.paths) && isRecord(doc.paths[op.path]) ? (doc.paths[op.path] as Json) : {};
  const names = new Set<string>();
  for (const list of [item.parameters, op.raw.parameters])
    if (Array.isArray(list))
      for (const p of list) if (isRecord(p) && p.in === 'query') names.add(String(p.name));
  return [...names];
}

function roleOf(
  op: Operation,
  served: string,
  collection: Collection | undefined,
  status: number,
  ops: readonly Operation[],
  templateOf: (o: Operation) => string,
): Role {
  if (collection !== undefined) {
    const onItem = collection.item?.text === served;
    if (onItem)
      return op.method === 'get'
        ? 'read'
        : op.method === 'put'
          ? 'replace'
          : op.method === 'delete'
            ? 'remove'
            : 'patch';
    if (op.method === 'get') return 'list';
    if (op.method === 'post' || (op.method === 'put' && status === 201)) return 'create';
    if (op.method === 'delete') return 'clear';
  }
  // The caller's own record, and the PUT/PATCH that change it (RealWorld's `PUT /user`).
  if (
    (op.method === 'get' || op.method === 'put' || op.method === 'patch') &&
    isCurrentUser({ ...op, method: 'get' })
  )
    return 'current';
  const hasGet = ops.some((o) => o.method === 'get' && templateOf(o) === served);
  if (hasGet && (op.method === 'get' || op.method === 'put' || op.method === 'patch')) return 'singleton';
  return 'other';
}

function requestOf(
  op: Operation,
  dialect: Dialect,
  collection: Collection | undefined,
  answerWrap: string | undefined,
): RequestPlan {
  const body = isRecord(op.raw.requestBody) ? op.raw.requestBody : undefined;
  const types = mediaTypesOf(body?.content);
  // The body the mock reads: JSON first, else a form (request-body.ts).
  const json =
    types.find((t) => isJsonType(t.type)) ??
    types.find((t) => t.type === 'application/x-www-form-urlencoded');
  const schema = json?.schema;
  let checked: Checked | undefined;
  let compiled: Compiled | undefined;
  const wrap = collection === undefined ? undefined : requestWrap(schema, answerWrap, collection.resource);
  const inner =
    schema === undefined
      ? undefined
      : wrap === undefined
        ? schema
        : ((schema.properties as Json | undefined)?.[wrap] as Json | undefined);
  return {
    json: json !== undefined,
    required: body?.required === true,
    types: types.map((t) => t.type),
    schema,
    checked: () => {
      if (schema !== undefined) checked ??= checkSchema(schema, dialect);
      return checked;
    },
    compiled: () => {
      if (schema !== undefined) compiled ??= compileSchema(schema, dialect);
      return compiled;
    },
    wrap,
    keyMember:
      collection?.param === undefined
        ? undefined
        : requestKeyMemberOf(inner, collection.param, collection.keyMember),
  };
}

/** The last segment of a view of a collection's items: a search (Gitea's `/teams/search`), a find (`findByStatus`). */
const VIEW = /^(search|find\w*|filter|query|lookup|all|list)(\.\w+)?$/i;

/**
 * A GET one literal segment below a collection's list path that shows its items (role `export`): in another
 * type than JSON (NetBox's `/dcim/sites/export/` as text/csv), or as a search or a find (Gitea's
 * `/teams/search?q=`, the Petstore's `/pet/findByStatus?status=`) whose answer is a list — filtered by its own
 * query parameters, so what was created is found there too.
 */
function viewOf(
  op: Operation,
  served: string,
  media: readonly MediaType[],
  collections: ReadonlyMap<string, Collection>,
): Collection | undefined {
  if (op.method !== 'get') return undefined;
  const last = served.replace(/\/$/, '').split('/').pop() ?? '';
  // An answer in JSON, or left undescribed (then the array of the items), is a view only when named as one.
  const json = media.length === 0 || media.some((m) => isJsonType(m.type));
  if (json && !VIEW.test(last)) return undefined;
  const parent = served.replace(/\/[^/{}]+\/?$/, '');
  for (const c of collections.values())
    if (c.list.text.replace(/\/$/, '') === parent && parent !== served) {
      const answer = media.find((m) => isJsonType(m.type))?.schema;
      return !json || answer === undefined || listShape(answer, c.resource) !== undefined ? c : undefined;
    }
  return undefined;
}

export function planOperations(
  doc: Json,
  operations: readonly Operation[],
  templateOf: (op: Operation) => string,
  collections: ReadonlyMap<string, Collection>,
  dialect: Dialect,
): Map<Operation, OperationPlan> {
  // Each served template's collection: as its list path or as its item path.
  const collectionAt = new Map<string, Collection>();
  for (const c of collections.values()) {
    collectionAt.set(c.list.text, c);
    if (c.item !== undefined) collectionAt.set(c.item.text, c);
  }
  const out = new Map<Operation, OperationPlan>();
  for (const op of operations) {
    const served = templateOf(op);
    const { status, response } = success(op);
    const media = status === 204 ? [] : mediaTypesOf(response?.content);
    const login = loginOf(doc, op);
    const exported = login === undefined ? viewOf(op, served, media, collections) : undefined;
    const collection = login === undefined ? (collectionAt.get(served) ?? exported) : undefined;
    const role: Role =
      login !== undefined
        ? 'login'
        : exported !== undefined
          ? 'export'
          : roleOf(op, served, collection, status, operations, templateOf);
    const json = media.find((m) => isJsonType(m.type));
    const item =
      collection !== undefined && role !== 'list' && role !== 'export'
        ? itemShape(json?.schema, collection.resource, collection.param)
        : undefined;
    const answers = new Map<MediaType | undefined, unknown>();
    out.set(op, {
      method: op.method.toUpperCase(),
      template: served,
      served: parseTemplate(served),
      role,
      collection,
      status,
      media,
      item,
      list:
        (role === 'list' || role === 'export') && collection !== undefined
          ? listShape(json?.schema, collection.resource)
          : undefined,
      declared: declaredOf(op),
      query: queryOf(doc, op),
      request: requestOf(op, dialect, collection, item?.wrap),
      login,
      dialect,
      answer(chosen) {
        // A read whose answer the document leaves undescribed still answers a JSON document: an empty object.
        if (!answers.has(chosen))
          answers.set(
            chosen,
            answerOf(chosen, dialect) ?? (op.method === 'get' && status !== 204 ? {} : undefined),
          );
        return answers.get(chosen);
      },
    });
  }
  return out;
}
