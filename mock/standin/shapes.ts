/**
 * Where the item is in an answer or a request body the document describes:
 * - an item answer is the item, or a wrapper holding it — `{"article": {…}}` (RealWorld), `{"data": {…}}`
 *   (Asana), `{"business_service": {…}}` (PagerDuty): one object member holding the key member, or the only
 *   member, or one named data / item / result / the resource's own name;
 * - a list answer is an array of items, or an object with one array of items — `results` (NetBox, with
 *   `count`, `next`, `previous`), `data`, `items`, `articles` — and members about the page around it
 *   (lists.ts fills them);
 * - a request body carries the item, or wraps it as the answer does (`{"article": {…}}`).
 */
import { merged } from '../../cli/init/sample-item.ts';
import { isRecord } from '../../shared/is-record.ts';
import { keyMemberOf } from './keys.ts';

type Json = Record<string, unknown>;

export interface ItemShape {
  /** The wrapper member holding the item; undefined: the answer is the item. */
  readonly wrap: string | undefined;
  /** The item's schema. */
  readonly schema: Json | undefined;
}

export interface ListShape {
  /** The member holding the page one level down (Discourse's `category_list`), if the list is nested. */
  readonly outer?: string;
  /** The member holding the items; undefined: the answer is the array. */
  readonly member: string | undefined;
  /** The schema of one item. */
  readonly items: Json | undefined;
  /** The schema of the object holding the items (its page members: count, next, …). */
  readonly schema: Json | undefined;
}

const WRAPPERS = ['data', 'item', 'result', 'resource', 'entity', 'object', 'record'];
const LISTS = [
  'results',
  'data',
  'items',
  'records',
  'entries',
  'values',
  'content',
  'list',
  'elements',
  'objects',
  'hits',
  'rows',
];

const typeOf = (s: Json) => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type);
const isObjectSchema = (s: unknown): s is Json =>
  isRecord(s) && (typeOf(merged(s)) === 'object' || isRecord(merged(s).properties));

/** `articles` → `article`, `categories` → `category`, `addresses` → `address`. */
export function singular(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (/s$/.test(word) && !/ss$/.test(word)) return word.slice(0, -1);
  return word;
}

const plain = (n: string) => n.toLowerCase().replace(/[_-]/g, '');

/** `param`: the item path's parameter, whose member (keys.ts) tells the item from a wrapper. */
export function itemShape(answer: Json | undefined, resource: string, param?: string): ItemShape {
  if (answer === undefined) return { wrap: undefined, schema: undefined };
  const schema = merged(answer);
  const properties = isRecord(schema.properties) ? schema.properties : undefined;
  if (properties === undefined) return { wrap: undefined, schema: answer };
  if (param !== undefined && keyMemberOf(answer, param) !== undefined)
    return { wrap: undefined, schema: answer };
  const objects = Object.entries(properties).filter(
    ([, v]) => isObjectSchema(v) && isRecord(merged(v as Json).properties),
  );
  const holding =
    param === undefined ? [] : objects.filter(([, v]) => keyMemberOf(v as Json, param) !== undefined);
  const names = [...WRAPPERS, plain(singular(resource)), plain(resource)];
  const chosen =
    (holding.length === 1 ? holding[0] : undefined) ??
    (objects.length === 1 && Object.keys(properties).length === 1 ? objects[0] : undefined) ??
    objects.find(([n]) => names.includes(plain(n)));
  return chosen === undefined
    ? { wrap: undefined, schema: answer }
    : { wrap: chosen[0], schema: chosen[1] as Json };
}

export function listShape(answer: Json | undefined, resource: string, nested = false): ListShape | undefined {
  if (answer === undefined) return undefined;
  const schema = merged(answer);
  if (typeOf(schema) === 'array' || isRecord(schema.items))
    return { member: undefined, items: isRecord(schema.items) ? schema.items : undefined, schema: answer };
  const properties = isRecord(schema.properties) ? schema.properties : undefined;
  // A bare `type: object` says nothing of its members: the items under `items` (Kubernetes' lists, Google's).
  if (properties === undefined)
    return typeOf(schema) === 'object' ? { member: 'items', items: undefined, schema: answer } : undefined;
  const arrays = Object.entries(properties).filter(([, v]) => {
    if (!isRecord(v)) return false;
    const m = merged(v);
    return (typeOf(m) === 'array' || isRecord(m.items)) && (m.items === undefined || isObjectSchema(m.items));
  });
  const names = [...LISTS, plain(resource)];
  const chosen = arrays.length === 1 ? arrays[0] : arrays.find(([n]) => names.includes(plain(n)));
  if (chosen === undefined) {
    // One level down: `{"category_list": {"categories": […], …}}` (Discourse).
    if (nested) return undefined;
    const objects = Object.entries(properties).filter(([, v]) => isObjectSchema(v));
    for (const [name, inner] of objects) {
      const found = listShape(inner as Json, resource, true);
      if (found?.member !== undefined && isRecord(merged(inner as Json).properties))
        return { ...found, outer: name };
    }
    return undefined;
  }
  const items = merged(chosen[1] as Json).items;
  return { member: chosen[0], items: isRecord(items) ? items : undefined, schema: answer };
}

/** The member a request body wraps the item in (`article` of `{"article": {…}}`), if it does. */
export function requestWrap(
  body: Json | undefined,
  answerWrap: string | undefined,
  resource: string,
): string | undefined {
  if (body === undefined) return undefined;
  const schema = merged(body);
  const properties = isRecord(schema.properties) ? schema.properties : undefined;
  if (properties === undefined) return undefined;
  const names = Object.keys(properties);
  if (answerWrap !== undefined && names.includes(answerWrap) && isObjectSchema(properties[answerWrap]))
    return answerWrap;
  if (names.length !== 1) return undefined;
  const only = names[0] as string;
  const wanted = [...WRAPPERS, plain(singular(resource)), plain(resource)];
  return isObjectSchema(properties[only]) && wanted.includes(plain(only)) ? only : undefined;
}

/** The resource's word: the template's last literal segment (`/api/v1/sites/` → `sites`, `/Calls.json` → `Calls`). */
export function resourceOf(listTemplate: string): string {
  const segments = listTemplate.split('/').filter((s) => s !== '' && !s.includes('{'));
  return (segments.at(-1) ?? 'items').replace(/\.\w+$/, '');
}
