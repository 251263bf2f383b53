/**
 * The stand-in's data, as the document addresses it: per collection (its list path with its parameters filled,
 * `/api/articles`, `/master/users`) the items by their key — the value of the item path's parameter (`{slug}`,
 * `{username}`, `{id}`) — in the order they were made; and the objects of paths that are no collection
 * (`/user`, `/settings`) once written. A collection is seeded on first use (seeds.ts), so a document of a
 * thousand paths starts without making a thousand lists. In memory; the control API's reset (or a restart)
 * starts from the seeds again.
 */
import type { Collection } from './collections.ts';

export type Seeder = (collection: Collection, path: string) => Iterable<readonly [string, unknown]>;

/** A key as the collection compares it: `007` and `7` are one numeric key. */
export function canonicalKey(collection: Collection, key: string): string {
  return collection.numeric && /^[+-]?\d+$/.test(key) ? String(Number(key)) : key;
}

export class StandInStore {
  private lists = new Map<string, Map<string, unknown>>();
  private singletons = new Map<string, unknown>();
  /** Bumped on every write: answers cached per path are valid while it holds. */
  version = 0;

  constructor(private readonly seed: Seeder) {}

  reset(): void {
    this.lists = new Map();
    this.singletons = new Map();
    this.version++;
  }

  /** The items of the collection at `path` (seeded on first use). */
  items(collection: Collection, path: string): Map<string, unknown> {
    let items = this.lists.get(path);
    if (items === undefined) {
      items = new Map(this.seed(collection, path));
      this.lists.set(path, items);
    }
    return items;
  }

  get(collection: Collection, path: string, key: string): unknown {
    return this.items(collection, path).get(canonicalKey(collection, key));
  }

  put(collection: Collection, path: string, key: string, item: unknown): void {
    this.items(collection, path).set(canonicalKey(collection, key), item);
    this.version++;
  }

  remove(collection: Collection, path: string, key: string): boolean {
    const had = this.items(collection, path).delete(canonicalKey(collection, key));
    if (had) this.version++;
    return had;
  }

  clear(path: string): void {
    this.lists.set(path, new Map());
    this.version++;
  }

  singleton(path: string): unknown {
    return this.singletons.get(path);
  }

  setSingleton(path: string, value: unknown): void {
    this.singletons.set(path, value);
    this.version++;
  }
}
