/**
 * What a collection holds before anyone writes to it: the items the document shows — its list example's
 * elements, and an item under the key the item path's parameter example gives (its GET's example answer, else
 * made) — or, where it shows none, SEEDS items made from the item's schema (generate.ts); each brought to the
 * schema (conform.ts: a document's example may not pass its own schema) and holding its key in the key member
 * — the same items on every start, in the list and at their item paths alike.
 */
import { isRecord } from '../../shared/is-record.ts';
import type { Collection } from './collections.ts';
import { conform } from './conform.ts';
import { generate } from './generate.ts';
import { newKey } from './new-key.ts';
import type { Dialect } from './schema-dialect.ts';
import { canonicalKey } from './store.ts';

/** Items made per collection: enough for a filter to tell them apart. */
export const SEEDS = 2;

/** The item with its key in the key member (a number where the collection's keys are). */
export function withKey(collection: Collection, item: unknown, key: string): unknown {
  if (collection.keyMember === undefined || !isRecord(item)) return item;
  return { ...item, [collection.keyMember]: collection.numeric ? Number(key) : key };
}

export function seeder(dialect: Dialect) {
  return (collection: Collection, _path: string): [string, unknown][] => {
    const out = new Map<string, unknown>();
    const keep = new Set(collection.keyMember === undefined ? [] : [collection.keyMember]);
    collection.documented.forEach(({ key, item }, i) => {
      const k = canonicalKey(collection, key);
      const made = { n: i + 1, direction: 'answer' as const, dialect };
      const base = isRecord(item)
        ? item
        : collection.entity === undefined
          ? {}
          : generate(collection.entity, made);
      out.set(k, conform(withKey(collection, base, k), collection.entity, dialect, made, keep));
    });
    // The document's own items where it shows some; made ones otherwise.
    const made = out.size > 0 ? 0 : SEEDS;
    for (let n = 1; n <= made; n++) {
      const nth = { n, direction: 'answer' as const, dialect };
      const item = collection.entity === undefined ? {} : generate(collection.entity, nth);
      const key = newKey(collection, out, n, item);
      out.set(key, conform(withKey(collection, item, key), collection.entity, dialect, nth, keep));
    }
    return [...out] as [string, unknown][];
  };
}
