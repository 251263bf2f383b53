/**
 * The json-server adapter: the only file that knows json-server exists.
 *
 * Decision (docs/design.md "Resources"): we use json-server 1.0.0-beta.15's data engine — its `Service`
 * class (find / findById / create / update / patch / destroyById over a lowdb `Low`) and its query parser
 * `parseWhere` — and own the HTTP layer ourselves instead of mounting its tinyhttp `createApp`. Why:
 * - its HTTP layer answers against our rules: POST → 201 (seed §4 rule 2 wants 200), errors as
 *   `{ "error": … }` instead of problem+json, unknown methods → 404 instead of 405 + Allow, and a malformed
 *   JSON body falls through milliparsec's `next(err)` to a 500 with the parser message (measured);
 * - every one of those would need rewriting on the way out, which costs a response interception per request on
 *   the hot path; with `Service` the pipeline writes each answer once, in the right shape;
 * - json-server 0.17 (Express) was ruled out: about 2k req/s against 15k for 1.0 on this machine, 404 where
 *   405 is due, and stack traces in 500 bodies.
 * What stays json-server's: the data model (collections with string ids, singular objects), id generation,
 * the query language (`?name=x`, `?age:gt=3`, `_sort`, `_page`, `_per_page`, `_embed`, `_where`) and the
 * write semantics (PUT replaces keeping the id, PATCH merges, DELETE nullifies foreign keys).
 * The lib has no `exports` map, so the deep imports resolve; json-server-lib.d.ts types them. json-server is a
 * devDependency: the package ships these modules (and the few they import) in dist/vendor/json-server/, where
 * the build points these imports (scripts/vendor-json-server.ts), since json-server's own `engines` (Node ≥ 22.12,
 * for its CLI) would exclude the Node 20.19 gatecheck supports (issue #71).
 */

import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { parseWhere } from 'json-server/lib/parse-where.js';
import { type Data, type Item, Service } from 'json-server/lib/service.js';
import { Low, Memory } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { ConfigError } from '../util/config-error.ts';
import { readJsonFile } from '../util/read-json.ts';
import { type JsonObject, QueryError, type ResourceEngine, type ResourceKind } from './types.ts';

export interface JsonServerEngineOptions {
  /** Seed data, read once and never written (the mock never writes into fixtures/). */
  readonly seedPath: string;
  /** Persist state to this file (lowdb JSONFile: write to a temporary file, then rename). Absent: memory. */
  readonly persistPath?: string | undefined;
}

/** json-server's reserved query keys (lib/app.js RESERVED_QUERY_KEYS); every other key is a filter. */
const RESERVED_QUERY_KEYS = new Set(['_sort', '_page', '_per_page', '_embed', '_where']);

export async function openJsonServerEngine(options: JsonServerEngineOptions): Promise<ResourceEngine> {
  const { seedPath, persistPath } = options;
  let data: Data;
  let db: Low<Data>;
  if (persistPath !== undefined && existsSync(persistPath)) {
    // An existing persistence file is the state of an earlier run: continue from it.
    data = readData(persistPath, 'data file');
    db = new Low<Data>(new JSONFile<Data>(persistPath), data);
  } else {
    // JSON.parse of the file text is already a deep copy: nothing we mutate is shared with the seed.
    data = readData(seedPath, 'seed data');
    if (persistPath !== undefined) {
      try {
        writeFileSync(persistPath, `${JSON.stringify(data, null, 2)}\n`, { flag: 'wx' });
      } catch (err) {
        throw new ConfigError(`data file ${persistPath}: cannot create it (${(err as Error).message})`);
      }
      db = new Low<Data>(new JSONFile<Data>(persistPath), data);
    } else {
      db = new Low<Data>(new Memory<Data>(), data);
    }
  }
  return new JsonServerEngine(db, seedPath);
}

class JsonServerEngine implements ResourceEngine {
  readonly #db: Low<Data>;
  readonly #service: Service;
  readonly #pending = new Set<Promise<unknown>>();
  readonly #seedPath: string;
  #version = 0;

  constructor(db: Low<Data>, seedPath: string) {
    this.#db = db;
    this.#service = new Service(db);
    this.#seedPath = seedPath;
  }

  get version(): number {
    return this.#version;
  }

  kindOf(name: string): ResourceKind | undefined {
    if (!Object.hasOwn(this.#db.data, name)) return undefined;
    return Array.isArray(this.#db.data[name]) ? 'collection' : 'singular';
  }

  list(name: string, query: string): unknown {
    if (query === '' || !Array.isArray(this.#db.data[name])) return this.#service.find(name, { where: {} });
    const options = this.#listOptions(query);
    try {
      return this.#service.find(name, options);
    } catch (err) {
      // Only the client's query reaches here with a non-empty option set; json-server does not validate it.
      throw new QueryError(`the query cannot be applied: ${(err as Error).message}`);
    }
  }

  read(name: string, id: string, query: string): JsonObject | undefined {
    const embed = query === '' ? [] : this.#embeds(new URLSearchParams(query));
    try {
      return this.#service.findById(name, id, { _embed: embed });
    } catch (err) {
      throw new QueryError(`the query cannot be applied: ${(err as Error).message}`);
    }
  }

  create(name: string, body: JsonObject): Promise<JsonObject | undefined> {
    return this.#write(this.#service.create(name, body));
  }

  replace(name: string, id: string | undefined, body: JsonObject): Promise<JsonObject | undefined> {
    if (id === undefined) return this.#write(this.#service.update(name, body as Item));
    return this.#write(this.#service.updateById(name, id, body as Item));
  }

  patch(name: string, id: string | undefined, body: JsonObject): Promise<JsonObject | undefined> {
    if (id === undefined) return this.#write(this.#service.patch(name, body as Item));
    return this.#write(this.#service.patchById(name, id, body as Item));
  }

  remove(name: string, id: string): Promise<JsonObject | undefined> {
    return this.#write(this.#service.destroyById(name, id));
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.#pending]);
  }

  /** Service reads `db.data` on every call, so replacing it is the whole reset; the seed is read afresh. */
  async reset(): Promise<void> {
    await Promise.allSettled([...this.#pending]);
    this.#db.data = readData(this.#seedPath, 'seed data');
    this.#version++;
    // JSONFile: the persistence file gets the seed too; Memory: nothing to write.
    await this.#db.write();
  }

  /**
   * Service mutates `db.data` synchronously and then awaits `db.write()`, so the version is bumped as soon
   * as the call returns: a GET arriving while the file write is pending already sees the new state.
   */
  #write(operation: Promise<Item | undefined>): Promise<JsonObject | undefined> {
    this.#version++;
    this.#pending.add(operation);
    const settle = (): void => {
      this.#pending.delete(operation);
    };
    operation.then(settle, settle);
    return operation;
  }

  /** json-server's own parseListParams (lib/app.js), which it does not export. */
  #listOptions(query: string) {
    let params: URLSearchParams;
    let where: Record<string, unknown>;
    try {
      params = new URLSearchParams(query);
      const filters = new URLSearchParams();
      for (const [key, value] of params) if (!RESERVED_QUERY_KEYS.has(key)) filters.append(key, value);
      where = parseWhere(filters.toString());
    } catch (err) {
      throw new QueryError(`the query cannot be parsed: ${(err as Error).message}`);
    }
    const rawWhere = params.get('_where');
    if (rawWhere !== null) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(rawWhere);
      } catch {
        throw new QueryError('_where is not valid JSON');
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new QueryError('_where must be a JSON object');
      }
      where = parsed as Record<string, unknown>;
    }
    return {
      where,
      sort: params.get('_sort') ?? undefined,
      page: integerParam(params.get('_page')),
      perPage: integerParam(params.get('_per_page')),
      embed: this.#embeds(params),
    };
  }

  /**
   * json-server looks an embed name up in the data without checking what it finds: `_embed=__proto__` reaches
   * Object.prototype and a singular resource has no `.filter`. Only names of collections pass (or their
   * singular, which json-server pluralises by adding an `s` in the common case).
   */
  #embeds(params: URLSearchParams): string[] {
    const out: string[] = [];
    for (const name of params.getAll('_embed')) {
      if (this.#isCollection(name) || this.#isCollection(`${name}s`)) out.push(name);
    }
    return out;
  }

  #isCollection(name: string): boolean {
    return Object.hasOwn(this.#db.data, name) && Array.isArray(this.#db.data[name]);
  }
}

function integerParam(raw: string | null): number | undefined {
  if (raw === null) return undefined;
  const value = Number.parseInt(raw, 10);
  return Number.isNaN(value) ? undefined : value;
}

/**
 * Reads and normalises a data file the way json-server's NormalizedAdapter does (numeric ids become strings,
 * missing ids are generated), and checks its shape so a bad file is refused at start-up with one line.
 */
function readData(path: string, label: string): Data {
  const parsed = readJsonFile(path, label);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`${label} ${path}: must be a JSON object of collections and singular resources`);
  }
  const data = parsed as Record<string, unknown>;
  delete data.$schema;
  for (const [name, value] of Object.entries(data)) {
    if (Array.isArray(value)) {
      value.forEach((item: unknown, index) => {
        if (typeof item !== 'object' || item === null || Array.isArray(item)) {
          throw new ConfigError(`${label} ${path}: ${name}[${index}] must be an object`);
        }
        const record = item as Record<string, unknown>;
        if (typeof record.id === 'number') record.id = String(record.id);
        else if (record.id === undefined) record.id = randomBytes(8).toString('base64url');
        else if (typeof record.id !== 'string') {
          throw new ConfigError(`${label} ${path}: ${name}[${index}].id must be a string or a number`);
        }
      });
    } else if (typeof value !== 'object' || value === null) {
      throw new ConfigError(
        `${label} ${path}: ${name} must be an array (collection) or an object (singular)`,
      );
    }
  }
  return data as Data;
}
