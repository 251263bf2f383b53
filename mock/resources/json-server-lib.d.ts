/**
 * Types for the two json-server 1.0.0-beta.15 modules the adapter (json-server.ts) imports directly.
 * The package ships compiled JavaScript without declarations and has no `exports` map, so deep imports of
 * `lib/*.js` resolve; these signatures are read off node_modules/json-server/lib/{service,parse-where}.js.
 * Keep them in step when json-server is upgraded (it is pinned exactly in package.json's devDependencies; the
 * package ships the modules themselves, copied by scripts/vendor-json-server.ts).
 */

declare module 'json-server/lib/service.js' {
  import type { Low } from 'lowdb';

  export type Item = Record<string, unknown>;
  export type Data = Record<string, Item[] | Item>;

  export interface FindOptions {
    where: Record<string, unknown>;
    sort?: string | undefined;
    page?: number | undefined;
    perPage?: number | undefined;
    embed?: string | string[] | undefined;
  }

  export interface PaginatedItems {
    first: number;
    prev: number | null;
    next: number | null;
    last: number;
    pages: number;
    items: number;
    data: Item[];
  }

  export function isItem(obj: unknown): obj is Item;

  export class Service {
    constructor(db: Low<Data>);
    has(name: string): boolean;
    findById(name: string, id: string, query: { _embed?: string | string[] }): Item | undefined;
    find(name: string, opts: FindOptions): Item[] | Item | PaginatedItems | undefined;
    create(name: string, data?: Omit<Item, 'id'>): Promise<Item | undefined>;
    update(name: string, body?: Item): Promise<Item | undefined>;
    patch(name: string, body?: Item): Promise<Item | undefined>;
    updateById(name: string, id: string, body?: Item): Promise<Item | undefined>;
    patchById(name: string, id: string, body?: Item): Promise<Item | undefined>;
    destroyById(name: string, id: string, dependent?: string | string[]): Promise<Item | undefined>;
  }
}

declare module 'json-server/lib/parse-where.js' {
  /** `a=1&b:gt=2&c.d:in=x,y` → `{ a: { eq: 1 }, b: { gt: 2 }, c: { d: { in: ['x', 'y'] } } }`. */
  export function parseWhere(query: string): Record<string, unknown>;
}
