/**
 * A collection's operations over the store (store.ts), as the document addresses its items:
 * - list: the items, filtered and paged (lists.ts), each as the list's schema describes one (project.ts);
 * - create: what was sent (unwrapped from `{"article": …}`), under the key it carries (`username`) or one the
 *   server names (new-key.ts), with the members the item's schema requires or marks read-only that were not
 *   sent made (generate.ts) — answered with the document's status and, for a 201, `Location` at the item path
 *   (RFC 9110 §15.3.2, §10.2.2); a key already taken → 409 (or the document's 422);
 * - read: the item, 404 when the key is unknown;
 * - replace (PUT, RFC 9110 §9.3.4): the item becomes what was sent, keeping its key and what the server set;
 *   patch (PATCH, and POST on an item): what was sent merged in (RFC 7396: null removes a member); a key member
 *   changed moves the item to its new key;
 * - remove: gone, 404 after; clear (DELETE on the list path): every item gone.
 */
import { merged } from '../../cli/init/sample-item.ts';
import { isRecord } from '../../shared/is-record.ts';
import type { Reply } from '../http/reply.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import type { Collection } from './collections.ts';
import { conform } from './conform.ts';
import { generate } from './generate.ts';
import { listBody, pageOf } from './lists.ts';
import { isJsonType, type MediaType } from './media.ts';
import { newKey } from './new-key.ts';
import type { OperationPlan } from './plans.ts';
import { conflictStatus, statusProblem } from './problems.ts';
import { ordinalOf, project } from './project.ts';
import { answerReply, wrapped } from './reply.ts';
import { withKey } from './seeds.ts';
import { canonicalKey, type StandInStore } from './store.ts';
import { fill, valuesOf } from './templates.ts';

type Json = Record<string, unknown>;

const NO_ITEM = statusProblem(404, 'not-found', 'No item at this path.');

interface Located {
  /** The collection's list path, its parameters filled (`/master/users`). */
  readonly listPath: string;
  readonly listValues: readonly string[];
  /** The item's key (decoded), for item paths. */
  readonly key: string | undefined;
}

function locate(c: Collection, plan: OperationPlan, path: string): Located | undefined {
  const onItem = c.item !== undefined && plan.template === c.item.text;
  // Its own template: the list's, the item's, or an export's below the list (its parameters come first).
  const values = valuesOf(plan.served, path);
  if (values === undefined) return undefined;
  const listValues = values.slice(0, c.list.names.length);
  return { listPath: fill(c.list, listValues), listValues, key: onItem ? values.at(-1) : undefined };
}

/** The answer of an item operation: the item as its schema says, inside its wrapper, in the chosen type. */
function itemAnswer(
  plan: OperationPlan,
  c: Collection,
  media: MediaType | undefined,
  item: unknown,
  key: string,
  headers?: Record<string, string>,
  status = plan.status,
): Reply {
  // No content declared for a 2xx that is no 204: the item as JSON, what such an API answers.
  const shape = plan.item;
  const value = project(item, shape?.schema, plan.dialect, key, c.keyMember);
  return answerReply(status, media, wrapped(value, shape?.wrap), headers);
}

/** Members the item's schema requires or marks read-only, taken from `from` or else made for the key. */
function serverMembers(c: Collection, item: Json, key: string, from?: Json): Json {
  if (c.entity === undefined) return item;
  const schema = merged(c.entity);
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const out: Json = { ...item };
  for (const [name, p] of Object.entries(properties)) {
    if (name in out) continue;
    const readOnly = isRecord(p) && p.readOnly === true;
    if (!required.has(name) && !readOnly) continue;
    if (from !== undefined && name in from) out[name] = from[name];
    else out[name] = generate(p, { n: ordinalOf(key), direction: 'answer' }, name, 1);
  }
  return out;
}

/** RFC 7396 JSON Merge Patch: members merged recursively, null removes. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return patch;
  const out: Json = isRecord(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

const unwrap = (body: unknown, wrap: string | undefined): Json => {
  const inner = wrap !== undefined && isRecord(body) && isRecord(body[wrap]) ? body[wrap] : body;
  return isRecord(inner) ? inner : {};
};

export interface CollectionRequest {
  readonly exchange: Exchange;
  readonly plan: OperationPlan;
  readonly media: MediaType | undefined;
  readonly store: StandInStore;
  /** The request body, read and checked (request-body.ts). */
  readonly body: unknown;
}

export function list({ exchange, plan, media, store }: CollectionRequest): Reply {
  const c = plan.collection as Collection;
  const at = locate(c, plan, exchange.path);
  if (at === undefined) return NO_ITEM;
  const query = new URLSearchParams(exchange.query);
  const stored = [...store.items(c, at.listPath).entries()];
  const page = pageOf(
    stored.map(([, item]) => item),
    query,
    plan.query,
  );
  const keyOf = new Map(stored.map(([k, item]) => [item, k]));
  const items = page.items.map((item) =>
    project(item, plan.list?.items, plan.dialect, keyOf.get(item) ?? '', c.keyMember),
  );
  // A list asked for in another type than JSON (an export as text/csv): the items alone.
  const body =
    media === undefined || isJsonType(media.type)
      ? listBody(plan.list, { ...page, items }, { path: exchange.path, query, declared: plan.query })
      : items;
  return answerReply(plan.status, media, body);
}

export function read({ exchange, plan, media, store }: CollectionRequest): Reply {
  const c = plan.collection as Collection;
  const at = locate(c, plan, exchange.path);
  const item = at?.key === undefined ? undefined : store.get(c, at.listPath, at.key);
  if (at?.key === undefined || item === undefined) return NO_ITEM;
  return itemAnswer(plan, c, media, item, canonicalKey(c, at.key));
}

export function create({ exchange, plan, media, store, body }: CollectionRequest): Reply {
  const c = plan.collection as Collection;
  const at = locate(c, plan, exchange.path);
  if (at === undefined) return NO_ITEM;
  const items = store.items(c, at.listPath);
  const sent = unwrap(body, plan.request.wrap);
  const asked = plan.request.keyMember === undefined ? undefined : sent[plan.request.keyMember];
  let key: string;
  if (typeof asked === 'string' || typeof asked === 'number') {
    key = canonicalKey(c, String(asked));
    if (items.has(key)) {
      exchange.outcome = 'key_taken';
      return statusProblem(
        conflictStatus(plan.declared),
        'conflict',
        `An item with the key ${JSON.stringify(key)} exists already.`,
        {
          member: `/${plan.request.keyMember}`,
        },
      );
    }
  } else key = newKey(c, items, items.size + 1, sent);
  const made = withKey(c, serverMembers(c, sent, key), key);
  const keep = new Set([...(c.keyMember === undefined ? [] : [c.keyMember])]);
  const item = conform(made, c.entity, plan.dialect, { n: ordinalOf(key), direction: 'answer' }, keep);
  store.put(c, at.listPath, key, item);
  // RFC 9110 §10.2.2: where the new item is, under its key — on a 201 as the RFC asks, and on the 200 or 202
  // a document declares for its create where the item path can be read (GET), so that a client reads back
  // what it made; never a Location that answers 405.
  const location =
    c.item !== undefined && (plan.status === 201 || c.readable)
      ? { location: fill(c.item, [...at.listValues, key]) }
      : undefined;
  return itemAnswer(plan, c, media, item, key, location);
}

export function change({ exchange, plan, media, store, body }: CollectionRequest): Reply {
  const c = plan.collection as Collection;
  const at = locate(c, plan, exchange.path);
  const before = at?.key === undefined ? undefined : store.get(c, at.listPath, at.key);
  if (at?.key === undefined || before === undefined) return NO_ITEM;
  const key = canonicalKey(c, at.key);
  const sent = unwrap(body, plan.request.wrap);
  const previous = isRecord(before) ? before : {};
  let next: Json =
    plan.role === 'replace' ? serverMembers(c, sent, key, previous) : (mergePatch(previous, sent) as Json);
  // A key member sent anew moves the item (a rename); otherwise the key stays the item's own.
  const renamed =
    c.keyMember !== undefined &&
    (typeof sent[c.keyMember] === 'string' || typeof sent[c.keyMember] === 'number')
      ? canonicalKey(c, String(sent[c.keyMember]))
      : key;
  if (renamed !== key && store.get(c, at.listPath, renamed) !== undefined) {
    exchange.outcome = 'key_taken';
    return statusProblem(
      conflictStatus(plan.declared),
      'conflict',
      `An item with the key ${JSON.stringify(renamed)} exists already.`,
      {
        member: `/${c.keyMember}`,
      },
    );
  }
  next = withKey(c, next, renamed) as Json;
  const keep = new Set(c.keyMember === undefined ? [] : [c.keyMember]);
  const item = conform(next, c.entity, plan.dialect, { n: ordinalOf(renamed), direction: 'answer' }, keep);
  if (renamed !== key) store.remove(c, at.listPath, key);
  store.put(c, at.listPath, renamed, item);
  // An answer the document leaves undescribed (200 without content) carries the item, as such APIs do.
  return itemAnswer(plan, c, media, item, renamed);
}

export function remove({ exchange, plan, media, store }: CollectionRequest): Reply {
  const c = plan.collection as Collection;
  const at = locate(c, plan, exchange.path);
  const before = at?.key === undefined ? undefined : store.get(c, at.listPath, at.key);
  if (at?.key === undefined || before === undefined) return NO_ITEM;
  store.remove(c, at.listPath, at.key);
  if (plan.media.length === 0) return answerReply(plan.status, undefined, undefined);
  return itemAnswer(plan, c, media, before, canonicalKey(c, at.key));
}

export function clear({ exchange, plan, media, store }: CollectionRequest): Reply {
  const c = plan.collection as Collection;
  const at = locate(c, plan, exchange.path);
  if (at === undefined) return NO_ITEM;
  store.clear(at.listPath);
  return answerReply(plan.status, media, plan.media.length === 0 ? undefined : plan.answer(media));
}
