/**
 * The document's collections, read from its path templates (OpenAPI 3.1 §4.8.8): an item path is a path whose
 * last segment is one parameter (`/articles/{slug}`, NetBox's `/sites/{id}/`, Discourse's `/categories/{id}.json`),
 * its collection the path without it (`/articles`, `/sites/`, `/categories.json`). Each collection knows:
 * - the parameter that names an item (`slug`), and the member of the item that holds it (keys.ts);
 * - what an item is: the schema of the item GET's answer, else the create's, else a list element's, else a
 *   replace's — unwrapped (shapes.ts);
 * - the keys the document gives examples for (the item path's parameter `example`), seeded first so that
 *   what the document shows exists.
 */
import type { Operation } from '../../cli/init/operations.ts';
import { isRecord } from '../../shared/is-record.ts';
import { keyMemberOf, numericKey } from './keys.ts';
import { itemShape, listShape, resourceOf } from './shapes.ts';
import { parseTemplate, type Template } from './templates.ts';

type Json = Record<string, unknown>;

export interface Collection {
  /** The resource's word (`articles`). */
  readonly resource: string;
  /** The served list template (`/api/articles`). */
  readonly list: Template;
  /** The served item template (`/api/articles/{slug}`), when the document has one. */
  readonly item: Template | undefined;
  /** The item path has a GET. */
  readonly readable: boolean;
  /** The item path's parameter (`slug`). */
  readonly param: string | undefined;
  /** What one item is, unwrapped. */
  readonly entity: Json | undefined;
  /** The member of an item holding its key; undefined: the key is the path's alone. */
  readonly keyMember: string | undefined;
  /** Keys are numbers (the key member, else the parameter, is an integer). */
  readonly numeric: boolean;
  /** The key's own schema (a uuid format, a pattern), to make new keys that fit it. */
  readonly keySchema: Json | undefined;
  /**
   * The items the document shows: its list example's elements, and the item parameter's example key with the
   * item GET's example answer if any.
   */
  readonly documented: readonly { readonly key: string; readonly item: unknown }[];
}

/** `/a/{id}`, `/a/{id}/`, `/a/{id}.json` → the collection `/a`, `/a/`, `/a.json` and the parameter. */
const ITEM = /^(.*)\/\{([^}/]+)\}(\.[A-Za-z0-9]+)?(\/?)$/;

export function splitItem(template: string): { list: string; param: string } | undefined {
  const m = ITEM.exec(template);
  if (m === null) return undefined;
  return { list: `${m[1] || ''}${m[3] ?? ''}${m[4] ?? ''}` || '/', param: m[2] as string };
}

/** The path parameter `name` of an operation (its own, else its Path Item's). */
export function pathParameter(doc: Json, op: Operation, name: string): Json | undefined {
  const item = isRecord(doc.paths) && isRecord(doc.paths[op.path]) ? (doc.paths[op.path] as Json) : {};
  for (const list of [op.raw.parameters, item.parameters])
    if (Array.isArray(list))
      for (const p of list) if (isRecord(p) && p.in === 'path' && p.name === name) return p;
  return undefined;
}

function documentedKey(parameter: Json | undefined): string | undefined {
  if (parameter === undefined) return undefined;
  const schema = isRecord(parameter.schema) ? parameter.schema : {};
  const examples = isRecord(parameter.examples)
    ? Object.values(parameter.examples).map((e) => (isRecord(e) ? e.value : undefined))
    : [];
  for (const v of [parameter.example, ...examples, schema.example, schema.default])
    if (typeof v === 'string' || typeof v === 'number') return String(v);
  return undefined;
}

export function readCollections(
  doc: Json,
  ops: readonly Operation[],
  templateOf: (op: Operation) => string,
  exampleOf: (op: Operation) => unknown,
): Map<string, Collection> {
  // Served list template → the operations on it and on its item path.
  const groups = new Map<
    string,
    { item?: string; param?: string; listOps: Operation[]; itemOps: Operation[] }
  >();
  const group = (list: string) => {
    let g = groups.get(list);
    if (g === undefined) {
      g = { listOps: [], itemOps: [] };
      groups.set(list, g);
    }
    return g;
  };
  for (const op of ops) {
    const served = templateOf(op);
    const split = splitItem(served);
    if (split !== undefined) {
      const g = group(split.list);
      g.item ??= served;
      g.param ??= split.param;
      if (g.item === served) g.itemOps.push(op);
    }
  }
  // A list path without an item path is a collection when it both lists (an array answer) and makes (POST).
  const byTemplate = new Map<string, Operation[]>();
  for (const op of ops) byTemplate.set(templateOf(op), [...(byTemplate.get(templateOf(op)) ?? []), op]);
  for (const [template, on] of byTemplate) {
    const lists = on.some(
      (o) => o.method === 'get' && listShape(o.answer, resourceOf(template)) !== undefined,
    );
    if (!groups.has(template) && lists && on.some((o) => o.method === 'post')) group(template);
    const g = groups.get(template);
    if (g !== undefined) for (const op of on) if (!g.itemOps.includes(op)) g.listOps.push(op);
  }

  const out = new Map<string, Collection>();
  for (const [list, g] of groups) {
    const resource = resourceOf(list);
    const param = g.param;
    const find = (ops: Operation[], method: string) => ops.find((o) => o.method === method);
    const read = find(g.itemOps, 'get');
    const create = find(g.listOps, 'post') ?? find(g.listOps, 'put');
    const lister = find(g.listOps, 'get');
    const replace = find(g.itemOps, 'put') ?? find(g.itemOps, 'patch');
    const candidates = [
      read && itemShape(read.answer, resource, param).schema,
      create && itemShape(create.answer, resource, param).schema,
      lister && listShape(lister.answer, resource)?.items,
      replace && itemShape(replace.answer, resource, param).schema,
    ].filter((s): s is Json => isRecord(s));
    // The richest description of an item: the first that states members.
    const entity = candidates.find((s) => isRecord(s.properties) || Array.isArray(s.allOf)) ?? candidates[0];
    // An item the document describes no member of holds its key under the parameter's name (`{name}` → `name`).
    const described = entity !== undefined && (isRecord(entity.properties) || Array.isArray(entity.allOf));
    const keyMember =
      param === undefined ? 'id' : (keyMemberOf(entity, param) ?? (described ? undefined : param));
    const parameter = read ?? g.itemOps[0];
    const paramSchema = parameter && param ? pathParameter(doc, parameter, param) : undefined;
    const keyParamSchema = isRecord(paramSchema?.schema) ? paramSchema.schema : undefined;
    const entityProps = entity && isRecord(entity.properties) ? entity.properties : undefined;
    const keySchema =
      keyMember !== undefined && entityProps !== undefined && isRecord(entityProps[keyMember])
        ? (entityProps[keyMember] as Json)
        : keyParamSchema;
    // What the document shows: its list example's elements under their keys, then the item path's example key.
    const documented: { key: string; item: unknown }[] = [];
    const shown = lister === undefined ? undefined : exampleOf(lister);
    const layout = lister === undefined ? undefined : listShape(lister.answer, resource);
    const elements = Array.isArray(shown)
      ? shown
      : isRecord(shown) && layout?.member !== undefined && Array.isArray(shown[layout.member])
        ? (shown[layout.member] as unknown[])
        : [];
    for (const element of elements)
      if (
        isRecord(element) &&
        keyMember !== undefined &&
        ['string', 'number'].includes(typeof element[keyMember])
      )
        documented.push({ key: String(element[keyMember]), item: element });
    const key = documentedKey(paramSchema);
    if (key !== undefined && read !== undefined && !documented.some((d) => d.key === key)) {
      const example = exampleOf(read);
      const wrap = itemShape(read.answer, resource, param).wrap;
      documented.push({ key, item: wrap !== undefined && isRecord(example) ? example[wrap] : example });
    }
    out.set(list, {
      resource,
      list: parseTemplate(list),
      item: g.item === undefined ? undefined : parseTemplate(g.item),
      readable: read !== undefined,
      param,
      entity,
      keyMember,
      numeric: numericKey(entity, keyMember, keyParamSchema),
      keySchema,
      documented,
    });
  }
  return out;
}
