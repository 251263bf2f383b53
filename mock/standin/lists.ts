/**
 * A collection's list as its GET declares it: the items, filtered by the query parameters the operation
 * declares (OpenAPI 3.1 §4.8.12, `in: query`) that name a member — equality on a scalar, membership in an array
 * (`tag` → RealWorld's `tagList`), an object's id or name (`author` → `author.username`), several values as
 * alternatives (`?id=1&id=2`, `ids=1,2`); a search parameter (`q`, `query`, `search`, `s`, `filter_term`)
 * matches a substring of any string member — then paged by the declared paging parameters (`limit`/`offset`,
 * `per_page`/`page`, …). The answer's page members are filled truthfully: a count (`count`, `total`,
 * `articlesCount`) is the number of matching items, `next`/`previous` the URL of the next/previous page or
 * null, `has_more` whether one follows. A declared parameter that names nothing is not applied. An undeclared
 * one is ignored, as the document's API would.
 */
import { merged } from '../../cli/init/sample-item.ts';
import { isRecord } from '../../shared/is-record.ts';
import { generate } from './generate.ts';
import type { ListShape } from './shapes.ts';

type Json = Record<string, unknown>;

const LIMIT =
  /^(\$?top|limit|per_?page|perPage|page_?size|pageSize|size|max_?results|maxResults|max|count|first)$/i;
const OFFSET = /^(\$?skip|offset|start|start_?index|startIndex|from)$/i;
const PAGE = /^(page|page_?number|pageNumber|p)$/i;
const SEARCH = /^(q|query|search|s|filter_?term|term|keyword|keywords|text)$/i;
/** Parameters that shape an answer rather than choose items. */
const SHAPING =
  /^(sort|sort_?by|order|order_?by|ordering|direction|fields|opt_\w+|expand|include(\[\])?|embed|format|pretty|lang|locale|cursor|marker|page_?token|since|until|before|after|consistency|total|total_?required|brief.*|with\w*|include\w*|exclude\w*)$/i;

const plain = (n: string) => n.toLowerCase().replace(/\[\]$/, '').replace(/[_-]/g, '');

/** What stands for an object in a comparison: its id, name, slug, username, login, email or key. */
const NAMES = ['id', 'uid', 'uuid', 'gid', 'slug', 'name', 'username', 'login', 'email', 'key', 'code'];

function matches(value: unknown, wanted: string): boolean {
  if (value === null || value === undefined) return wanted === 'null';
  if (Array.isArray(value)) return value.some((v) => matches(v, wanted));
  if (isRecord(value)) return NAMES.some((n) => n in value && matches(value[n], wanted));
  return String(value) === wanted;
}

/** Whether a value can be compared with the text asked for: a flag with true/false, a number with a number. */
function comparable(value: unknown, wanted: string): boolean {
  if (typeof value === 'boolean') return wanted === 'true' || wanted === 'false';
  if (typeof value === 'number') return wanted.trim() !== '' && Number.isFinite(Number(wanted));
  return true;
}

/** The member a filter parameter names, or undefined. `tag` → `tagList`/`tags`; `site_id` → `site`. */
function memberFor(param: string, item: Json): string | undefined {
  const p = plain(param.replace(/__(exact|in|n|ie)$/, ''));
  const names = Object.keys(item);
  const exact = names.find((n) => plain(n) === p);
  if (exact !== undefined) return exact;
  const stem = p.replace(/(ids?)$/, '');
  for (const n of names) {
    const q = plain(n);
    if (
      q === `${p}s` ||
      q === `${p}es` ||
      q === `${p}list` ||
      (stem !== '' && q === stem) ||
      q === `${stem}s`
    )
      return n;
  }
  return undefined;
}

/** The values asked for: repeated parameters and comma-separated lists alike. */
function valuesOf(query: URLSearchParams, name: string): string[] {
  return query
    .getAll(name)
    .flatMap((v) => (/,/.test(v) ? v.split(',') : [v]))
    .map((v) => v.trim());
}

function searchable(item: Json, term: string, depth = 0): boolean {
  for (const v of Object.values(item)) {
    if (typeof v === 'string' && v.toLowerCase().includes(term)) return true;
    if (depth < 1 && isRecord(v) && searchable(v, term, depth + 1)) return true;
  }
  return false;
}

export interface Page {
  /** The items of this page. */
  readonly items: unknown[];
  /** Matching items before paging. */
  readonly total: number;
  readonly offset: number;
  readonly limit: number | undefined;
}

/** The items the query chooses, then the page it asks for; `declared`: the operation's query parameters. */
export function pageOf(items: readonly unknown[], query: URLSearchParams, declared: readonly string[]): Page {
  let chosen = [...items];
  let limit: number | undefined;
  let offset = 0;
  let page: number | undefined;
  for (const name of declared) {
    if (!query.has(name)) continue;
    const values = valuesOf(query, name);
    const first = values[0] ?? '';
    if (LIMIT.test(name)) {
      const n = Number(first);
      if (Number.isInteger(n) && n >= 0) limit = n;
    } else if (OFFSET.test(name)) {
      const n = Number(first);
      if (Number.isInteger(n) && n >= 0) offset = n;
    } else if (PAGE.test(name)) {
      const n = Number(first);
      if (Number.isInteger(n) && n >= 1) page = n;
    } else if (SEARCH.test(name)) {
      const term = first.toLowerCase();
      if (term !== '') chosen = chosen.filter((i) => isRecord(i) && searchable(i, term));
    } else if (!SHAPING.test(name)) {
      chosen = chosen.filter((i) => {
        if (!isRecord(i)) return true;
        const member = memberFor(name, i);
        // A parameter that names no member, or one of another kind (RealWorld's `favorited=<username>` beside
        // the flag `favorited`), filters nothing.
        if (member === undefined || !values.every((v) => comparable(i[member], v))) return true;
        return values.some((v) => matches(i[member], v));
      });
    }
  }
  if (page !== undefined) offset = (page - 1) * (limit ?? DEFAULT_PAGE);
  const total = chosen.length;
  const sliced = chosen.slice(offset, limit === undefined ? undefined : offset + limit);
  return { items: sliced, total, offset, limit: limit ?? (page !== undefined ? DEFAULT_PAGE : undefined) };
}

/** The page size a `page` parameter alone implies. */
const DEFAULT_PAGE = 20;

const COUNT =
  /^(count|total|total_?count|totalCount|total_?results|totalResults|total_?items|totalItems|total_?size|totalSize|.+Count|.+_count|num_?results)$/i;
const NEXT = /^(next|next_?page|nextPage|next_?url|nextUrl|next_?link|nextLink)$/i;
const PREVIOUS = /^(prev|previous|prev_?page|prevPage|previous_?page|previousPage|prev_?url|previous_?url)$/i;
const MORE = /^(more|has_?more|hasMore|has_?next|hasNext)$/i;

/** The URL of the page at `offset`, the query otherwise as asked. */
function pageUrl(
  path: string,
  query: URLSearchParams,
  declared: readonly string[],
  offset: number,
  limit: number,
): string {
  const q = new URLSearchParams(query);
  const offsetName = declared.find((n) => OFFSET.test(n));
  const pageName = declared.find((n) => PAGE.test(n));
  const limitName = declared.find((n) => LIMIT.test(n));
  if (offsetName !== undefined) q.set(offsetName, String(offset));
  else if (pageName !== undefined) q.set(pageName, String(Math.floor(offset / limit) + 1));
  if (limitName !== undefined) q.set(limitName, String(limit));
  return `http://127.0.0.1${path}?${q}`;
}

const nullable = (s: Json) => s.nullable === true || (Array.isArray(s.type) && s.type.includes('null'));

/** The list answer: the array, or the declared object with the items in their member and its page members filled. */
export function listBody(
  shape: ListShape | undefined,
  page: Page,
  request: { readonly path: string; readonly query: URLSearchParams; readonly declared: readonly string[] },
): unknown {
  if (shape?.member === undefined) return page.items;
  const schema = shape.schema === undefined ? {} : merged(shape.schema);
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const out: Json = {};
  const limit = page.limit ?? page.items.length;
  const hasNext = page.offset + page.items.length < page.total;
  const hasPrevious = page.offset > 0;
  for (const [name, raw] of Object.entries(properties)) {
    const p = isRecord(raw) ? merged(raw) : {};
    const type = Array.isArray(p.type) ? p.type.find((t) => t !== 'null') : p.type;
    if (name === shape.member) out[name] = page.items;
    else if (COUNT.test(name) && (type === 'integer' || type === 'number')) out[name] = page.total;
    else if (NEXT.test(name) || PREVIOUS.test(name)) {
      const there = NEXT.test(name) ? hasNext : hasPrevious;
      const offset = NEXT.test(name) ? page.offset + limit : Math.max(0, page.offset - limit);
      if (there && limit > 0 && (type === 'string' || type === undefined))
        out[name] = pageUrl(request.path, request.query, request.declared, offset, limit);
      else if (nullable(p)) out[name] = null;
      else if (required.has(name)) out[name] = generate(raw, { n: 1, direction: 'answer' }, name);
    } else if (MORE.test(name) && type === 'boolean') out[name] = hasNext;
    else if (/^(limit|per_?page|page_?size|pageSize)$/i.test(name) && type === 'integer') out[name] = limit;
    else if (/^offset$/i.test(name) && type === 'integer') out[name] = page.offset;
    else if (required.has(name)) out[name] = generate(raw, { n: 1, direction: 'answer' }, name);
  }
  if (!(shape.member in out)) out[shape.member] = page.items;
  return shape.outer === undefined ? out : { [shape.outer]: out };
}
