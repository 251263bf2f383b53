/**
 * The stand-in's data: items by their concrete path (`/api/v3/pet/1`), seeded from the document — an item
 * path the document gives parameter examples for holds its GET answer's example, and a collection's example
 * list seeds an item per element that has the id field — then created, replaced, patched and removed by the
 * requests the mock answers. In memory; a restart (or the control API's reset) starts from the seed again.
 */
type Json = Record<string, unknown>;

/** The member at a dotted path (`business_service.id`: member `id` of member `business_service`). */
export function memberAt(item: unknown, field: string): unknown {
  let at = item;
  for (const name of field.split('.')) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
    at = (at as Json)[name];
  }
  return at;
}

/** A copy of `item` with the member at a dotted path set, the objects on the way copied or made. */
export function withMember(item: Json, field: string, value: unknown): Json {
  const [first, ...rest] = field.split('.') as [string, ...string[]];
  if (rest.length === 0) return { ...item, [first]: value };
  const inner = item[first];
  const base = typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? (inner as Json) : {};
  return { ...item, [first]: withMember(base, rest.join('.'), value) };
}

export interface Seed {
  readonly path: string;
  readonly item: unknown;
}

export class StandInData {
  private items = new Map<string, unknown>();
  /** Collection path → its items' paths (seeded or made): its listing is their items, found without a scan. */
  private collections = new Map<string, Set<string>>();
  private next = 1;
  /** Bumped on every write, like the json-server engine's `version`. */
  version = 0;

  constructor(private readonly seeds: readonly Seed[]) {
    this.reset();
  }

  reset(): void {
    this.items = new Map(this.seeds.map((s) => [s.path, structuredClone(s.item)]));
    this.collections = new Map();
    for (const s of this.seeds) this.member(s.path);
    this.next = 1;
    this.version++;
  }

  read(path: string): unknown {
    return this.items.get(path);
  }

  /** The items directly under a collection path, in the order they were made; undefined if it never held any. */
  under(collection: string): unknown[] | undefined {
    const paths = this.collections.get(collection);
    if (paths === undefined) return undefined;
    const out: unknown[] = [];
    for (const path of paths) if (this.items.has(path)) out.push(this.items.get(path));
    return out;
  }

  private member(path: string): void {
    const collection = path.slice(0, path.lastIndexOf('/'));
    let paths = this.collections.get(collection);
    if (paths === undefined) {
      paths = new Set();
      this.collections.set(collection, paths);
    }
    paths.add(path);
  }

  /** A new item under `collection`, its id in `idField` (dotted: nested; a number when the schema says so). */
  create(collection: string, body: Json, idField: string, numeric: boolean): { path: string; item: Json } {
    let id: string | number;
    do {
      const n = this.next++;
      id = numeric ? 1_000_000 + n : `gatecheck-${n}`;
    } while (this.items.has(`${collection}/${encodeURIComponent(String(id))}`));
    const item = withMember(body, idField, id);
    const path = `${collection}/${encodeURIComponent(String(id))}`;
    this.items.set(path, item);
    this.member(path);
    this.version++;
    return { path, item };
  }

  replace(path: string, item: unknown): void {
    this.items.set(path, item);
    this.version++;
  }

  remove(path: string): boolean {
    const had = this.items.delete(path);
    if (had) this.version++;
    return had;
  }
}
