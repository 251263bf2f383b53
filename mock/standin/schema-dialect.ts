/**
 * A document's Schema Object as a JSON Schema Ajv compiles, with what was changed said in words:
 * - OpenAPI 3.0 (§4.7.24 Schema Object, "an extended subset of JSON Schema Specification Wright Draft 00"): a
 *   boolean `exclusiveMaximum`/`exclusiveMinimum` beside `maximum`/`minimum` (draft 4's form) becomes the number
 *   form of draft 6 and later; `nullable: true` (and Swagger 2.0's `x-nullable`) admits `null` — in `type`, in
 *   `enum`, or as an `anyOf` alternative; `type: file` (Swagger 2.0) is a string.
 * - OpenAPI 3.1 (§4.8.24: JSON Schema 2020-12): kept, but an array `items` (draft 4–2019's tuple) becomes
 *   `prefixItems`; the 3.0 spellings above, met in 3.1 documents, are read the same way.
 * - Whatever Ajv would refuse is mended or dropped, never left to silently switch validation off: a numeric
 *   keyword written as a string (`"minimum": "3"`), an empty `enum`, a non-array `required`, an unknown
 *   `type`, a `$ref` the document does not resolve (→ accepts anything there), a `pattern` that is no
 *   ECMAScript regular expression under the `u` flag (Python's `(?P<n>`, `\Z`, or `[\w-.]`: checked without
 *   `u`, via the `x-gatecheck-pattern` keyword, or dropped) — each change is one note naming where.
 * - Cycles of a dereferenced document (a schema inside itself) and subschemas used more than once become
 *   `definitions` referred to by `$ref`, so compiling stays linear in the document's size.
 */
import { isRecord } from '../../shared/is-record.ts';

type Json = Record<string, unknown>;

export type Dialect = '3.0' | '3.1';

/** The keyword Ajv is taught (schema-validator.ts): a pattern checked without the `u` flag. */
export const LOOSE_PATTERN = 'x-gatecheck-pattern';

export interface Converted {
  readonly schema: Json | boolean;
  /** What was changed or dropped, and where (`/properties/slug: pattern … dropped`). */
  readonly notes: readonly string[];
}

/** The dialect of a document: OpenAPI 3.1 → JSON Schema 2020-12; 3.0 (and Swagger 2.0, upgraded) → draft 7. */
export function dialectOf(doc: Json): Dialect {
  return typeof doc.openapi === 'string' && /^3\.[1-9]/.test(doc.openapi) ? '3.1' : '3.0';
}

const ONE_SCHEMA = [
  'additionalProperties',
  'additionalItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas'];
const NUMBERS = ['minimum', 'maximum', 'multipleOf'];
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'];
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
/** Annotations and OpenAPI's own keywords: nothing to validate, left out of the compiled copy. */
const DROPPED = new Set([
  'example',
  'examples',
  'xml',
  'externalDocs',
  'discriminator',
  'description',
  'title',
  '$schema',
  '$id',
  'id',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
  'nullable',
  'x-nullable',
  'definitions',
  '$defs',
  '$ref',
]);

/** Python and PCRE spellings an ECMAScript pattern lacks, rewritten (`(?P<n>` → `(?<n>`, `\Z` → `$`). */
function ecmaPattern(source: string): string {
  return source
    .replace(/\(\?P<(\w+)>/g, '(?<$1>')
    .replace(/\(\?P=(\w+)\)/g, '\\k<$1>')
    .replace(/\\[Zz]/g, '$')
    .replace(/\\A/g, '^');
}

function compiles(source: string, flags: string): boolean {
  try {
    new RegExp(source, flags);
    return true;
  } catch {
    return false;
  }
}

/** Objects met more than once (shared or inside themselves): each becomes one definition. */
function repeated(root: unknown): Set<object> {
  const seen = new Set<object>();
  const twice = new Set<object>();
  const walk = (node: unknown): void => {
    if (!isRecord(node)) return;
    if (seen.has(node)) {
      twice.add(node);
      return;
    }
    seen.add(node);
    for (const sub of subschemas(node)) walk(sub);
  };
  walk(root);
  return twice;
}

function subschemas(node: Json): unknown[] {
  const out: unknown[] = [];
  for (const k of ONE_SCHEMA) if (isRecord(node[k])) out.push(node[k]);
  if (isRecord(node.items)) out.push(node.items);
  if (Array.isArray(node.items)) out.push(...node.items);
  for (const k of SCHEMA_LISTS) if (Array.isArray(node[k])) out.push(...(node[k] as unknown[]));
  for (const k of SCHEMA_MAPS) if (isRecord(node[k])) out.push(...Object.values(node[k] as Json));
  return out;
}

export function toJsonSchema(input: unknown, dialect: Dialect): Converted {
  const notes: string[] = [];
  const shared = repeated(input);
  const names = new Map<object, string>();
  const definitions: Json = {};
  const where = dialect === '3.1' ? '$defs' : 'definitions';

  const schema = (node: unknown, at: string): Json | boolean => {
    if (typeof node === 'boolean') return node;
    if (!isRecord(node)) {
      notes.push(`${at || '/'}: not a schema (${JSON.stringify(node)}), accepts anything`);
      return {};
    }
    if (!shared.has(node)) return body(node, at);
    let name = names.get(node);
    if (name === undefined) {
      name = `s${names.size}`;
      names.set(node, name);
      definitions[name] = {};
      definitions[name] = body(node, at);
    }
    return { $ref: `#/${where}/${name}` };
  };

  const body = (node: Json, at: string): Json => {
    const out: Json = {};
    if (typeof node.$ref === 'string')
      notes.push(`${at || '/'}: $ref ${node.$ref} is not resolved, accepts anything`);
    for (const [k, v] of Object.entries(node)) {
      if (DROPPED.has(k) || k.startsWith('x-')) continue;
      const here = `${at}/${k}`;
      if (ONE_SCHEMA.includes(k)) out[k] = schema(v, here);
      else if (SCHEMA_LISTS.includes(k)) {
        if (Array.isArray(v) && v.length > 0) out[k] = v.map((s, i) => schema(s, `${here}/${i}`));
        else notes.push(`${here}: not a non-empty list of schemas, dropped`);
      } else if (SCHEMA_MAPS.includes(k)) {
        if (isRecord(v))
          out[k] = Object.fromEntries(Object.entries(v).map(([n, s]) => [n, schema(s, `${here}/${n}`)]));
        else notes.push(`${here}: not a map of schemas, dropped`);
      } else if (k === 'items') {
        if (Array.isArray(v)) {
          const list = v.map((s, i) => schema(s, `${here}/${i}`));
          if (dialect === '3.1') out.prefixItems = list;
          else out.items = list;
        } else out.items = schema(v, here);
      } else if (NUMBERS.includes(k) || COUNTS.includes(k)) {
        const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
        const fits =
          typeof n === 'number' &&
          Number.isFinite(n) &&
          (!COUNTS.includes(k) || (Number.isInteger(n) && n >= 0)) &&
          (k !== 'multipleOf' || n > 0);
        if (fits) out[k] = n;
        else notes.push(`${here}: ${JSON.stringify(v)} is not a valid ${k}, dropped`);
        if (fits && typeof v === 'string')
          notes.push(`${here}: the string ${JSON.stringify(v)} read as a number`);
      } else if (k === 'exclusiveMaximum' || k === 'exclusiveMinimum') {
        // Draft 4 / OpenAPI 3.0: a boolean beside maximum/minimum; draft 6+: the bound itself.
        const bound = k === 'exclusiveMaximum' ? 'maximum' : 'minimum';
        if (typeof v === 'number') out[k] = v;
        else if (v === true && typeof node[bound] === 'number') out[k] = node[bound];
        else if (v !== false) notes.push(`${here}: ${JSON.stringify(v)} without a ${bound}, dropped`);
      } else if (k === 'type') {
        const list = (Array.isArray(v) ? v : [v]).map((t) => (t === 'file' ? 'string' : t));
        const known = list.filter((t): t is string => typeof t === 'string' && TYPES.has(t));
        if (known.length < list.length)
          notes.push(`${here}: ${JSON.stringify(v)} names an unknown type, dropped`);
        if (known.length > 0) out.type = known.length === 1 ? known[0] : [...new Set(known)];
      } else if (k === 'required') {
        if (Array.isArray(v) && v.every((r) => typeof r === 'string')) {
          if (v.length > 0) out.required = [...new Set(v)];
        } else if (v !== false)
          notes.push(`${here}: ${JSON.stringify(v)} is not a list of member names, dropped`);
      } else if (k === 'enum') {
        if (Array.isArray(v) && v.length > 0) out.enum = v;
        else notes.push(`${here}: ${JSON.stringify(v)} is not a non-empty list, dropped`);
      } else if (k === 'pattern') {
        if (typeof v !== 'string') notes.push(`${here}: ${JSON.stringify(v)} is not a pattern, dropped`);
        else if (compiles(v, 'u')) out.pattern = v;
        else {
          const mended = ecmaPattern(v);
          if (compiles(mended, 'u')) out.pattern = mended;
          else if (compiles(mended, '')) out[LOOSE_PATTERN] = mended;
          else notes.push(`${here}: ${v} is not an ECMAScript regular expression, not checked`);
        }
      } else if (k === 'uniqueItems') {
        if (typeof v === 'boolean') out[k] = v;
      } else if (k === 'format') {
        if (typeof v === 'string') out.format = v;
      } else if (k === 'dependencies' || k === 'dependentRequired') {
        if (isRecord(v)) out[k] = v;
      } else out[k] = v;
    }
    return nullable(node, out);
  };

  const root = schema(input, '');
  if (Object.keys(definitions).length === 0) return { schema: root, notes };
  // The root itself may be a definition (a schema inside itself): referred to through allOf.
  const top: Json = typeof root === 'boolean' ? { allOf: [root] } : { ...root };
  if (typeof top.$ref === 'string') {
    top.allOf = [{ $ref: top.$ref }];
    delete top.$ref;
  }
  top[where] = definitions;
  return { schema: top, notes };
}

/** OpenAPI 3.0 `nullable: true` (Swagger 2.0 `x-nullable`): `null` admitted besides what the schema says. */
function nullable(node: Json, out: Json): Json {
  if (node.nullable !== true && node['x-nullable'] !== true) return out;
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    return out;
  }
  if (Array.isArray(out.type)) {
    if (!out.type.includes('null')) out.type = [...out.type, 'null'];
    return out;
  }
  // No type (only a combination or a $ref): null as one more alternative.
  if (Object.keys(out).length === 0) return out;
  return { anyOf: [out, { type: 'null' }] };
}
