/**
 * What the request pipeline needs from the data layer. The only implementation is the json-server adapter
 * (json-server.ts); tests may inject another one through `MockConfig.engine` (e.g. one that throws, to
 * provoke the 500 path).
 */

export type JsonObject = Record<string, unknown>;

/**
 * `collection`: an array of items with string ids (`/users`, `/users/:id`).
 * `singular`: one object (`/protected`, `/admin`).
 */
export type ResourceKind = 'collection' | 'singular';

export interface ResourceEngine {
  /** The kind of a top-level key of the data, or undefined when the data has no such key. */
  kindOf(name: string): ResourceKind | undefined;
  /**
   * Bumped by every write. The pipeline caches serialised GET answers and compares this number, so the
   * hot path (`GET /users`) serialises once per change instead of once per request.
   */
  readonly version: number;
  /**
   * GET on `/name`: the collection (filtered, sorted, paginated by the raw query string, json-server's query
   * language) or the singular object. Throws `QueryError` for a query it cannot apply.
   */
  list(name: string, query: string): unknown;
  /** GET on `/name/:id`; undefined when there is no such item. */
  read(name: string, id: string, query: string): JsonObject | undefined;
  /** POST on `/name`: the created item with its new id. */
  create(name: string, body: JsonObject): Promise<JsonObject | undefined>;
  /** PUT on `/name/:id` (id given) or on a singular `/name`. */
  replace(name: string, id: string | undefined, body: JsonObject): Promise<JsonObject | undefined>;
  /** PATCH on `/name/:id` (id given) or on a singular `/name`. */
  patch(name: string, id: string | undefined, body: JsonObject): Promise<JsonObject | undefined>;
  /** DELETE on `/name/:id`: the removed item, undefined when there was none. */
  remove(name: string, id: string): Promise<JsonObject | undefined>;
  /** Waits for pending writes to reach the persistence file, if there is one. */
  close(): Promise<void>;
  /**
   * Puts the data back to the seed (and writes it to the persistence file, if there is one); bumps `version`.
   * Used by the control API's reset; optional so an injected engine need not offer it.
   */
  reset?(): Promise<void>;
}

/** A query string the engine cannot apply (bad `_where` JSON, a filter path dot-prop refuses, …) → 400. */
export class QueryError extends Error {
  readonly code = 'ERR_QUERY';
  override readonly name = 'QueryError';
}
