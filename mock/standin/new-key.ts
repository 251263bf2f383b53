/**
 * The key of an item the server names (a create whose body does not carry it, a seed): the next number for a
 * numeric key (one more than the largest, RFC-free but what a database sequence does); for a string key, one
 * that fits the key's schema (a `uuid` format, a `pattern`, lengths: generate.ts) — a slug made from the item's
 * title or name where the key is a slug or a name (`QA article` → `qa-article`, RealWorld's `{slug}`) — else
 * `<resource>-<n>` (`article-3`). Never a key the collection already holds.
 */
import { isRecord } from '../../shared/is-record.ts';
import type { Collection } from './collections.ts';
import { generate } from './generate.ts';
import { singular } from './shapes.ts';

type Json = Record<string, unknown>;

const TITLE = ['title', 'name', 'display_name', 'displayName', 'label', 'username', 'login', 'summary'];

export function slugOf(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

export function newKey(
  collection: Collection,
  taken: ReadonlyMap<string, unknown>,
  n: number,
  item?: unknown,
  fits: (key: string) => boolean = () => true,
): string {
  if (collection.numeric) {
    const minimum = typeof collection.keySchema?.minimum === 'number' ? collection.keySchema.minimum : 1;
    let max = minimum - 1;
    for (const k of taken.keys()) if (/^-?\d+$/.test(k)) max = Math.max(max, Number(k));
    return String(max + 1);
  }
  const free = (k: string) => k !== '' && !taken.has(k) && fits(k);
  const member = collection.keyMember ?? collection.param ?? '';
  // A key that names the item (a slug, a name, a login), not an id: made from its title.
  if (
    /(^|_|-)(slug|name|login|handle|username)$|^(slug|name|login|handle)/i.test(member) &&
    !/id$/i.test(member) &&
    isRecord(item)
  ) {
    const title = TITLE.map((t) => (item as Json)[t]).find((v) => typeof v === 'string' && v !== '');
    const base = typeof title === 'string' ? slugOf(title) : '';
    if (base !== '') {
      if (free(base)) return base;
      for (let i = 2; i < 1000; i++) if (free(`${base}-${i}`)) return `${base}-${i}`;
    }
  }
  const schema: Json | undefined = collection.keySchema;
  const shaped = schema !== undefined && (schema.format !== undefined || schema.pattern !== undefined);
  for (let i = n; i < n + 1000; i++) {
    const k = shaped
      ? String(generate(schema, { n: i, direction: 'answer' }, member))
      : `${singular(collection.resource).toLowerCase()}-${i}`;
    if (free(k)) return k;
  }
  return `${singular(collection.resource)}-${n}-${taken.size + 1}`;
}
