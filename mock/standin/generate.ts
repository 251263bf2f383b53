/**
 * Values made from a document's response schemas, that pass them (JSON Schema Validation 2020-12 §6: `type`,
 * `enum`, `const`, bounds, lengths, `pattern`, `required`, item counts; §7.3 formats, from formats.ts; OpenAPI
 * 3.0 `nullable`, `readOnly`/`writeOnly` §4.7.24) — deterministic: the n-th item of a collection is the same on
 * every start, and items differ from one another (`name-1`, `name-2`). `allOf` is merged, the first
 * alternative of `oneOf`/`anyOf` that is an object (else the first) is made; a `pattern` no plain candidate
 * matches is sampled by fast-check's `stringMatching` (loaded on first need) under a seed from the member's
 * path. Recursion stops at the depth of MAX_DEPTH: only required members below it, and a recursive member
 * not required is left out. A value that still fails its schema is mended by conform.ts.
 */
import { createRequire } from 'node:module';
import { merged, PRIVILEGE_MEMBER } from '../../cli/init/sample-item.ts';
import { isRecord } from '../../shared/is-record.ts';
import { FORMATS } from './formats.ts';
import type { Dialect } from './schema-dialect.ts';
import { compileSchema } from './schema-validator.ts';

type Json = Record<string, unknown>;

const MAX_DEPTH = 6;
/** Below this depth, only required members are made. */
const FULL_DEPTH = 3;

export interface Made {
  /** The item's ordinal: 1, 2, … — what makes two items differ. */
  readonly n: number;
  /** Writing an answer (writeOnly members left out) or a request (readOnly left out). */
  readonly direction: 'answer' | 'request';
  /** With the document's dialect, a `oneOf`/`anyOf` alternative is taken only when the value passes the whole. */
  readonly dialect?: Dialect;
}

/** FNV-1a: a 32-bit seed from a member's path, for fast-check's pattern sampling. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

let fastCheck: typeof import('fast-check') | undefined;

function regexOf(source: string): RegExp | undefined {
  for (const flags of ['u', ''])
    try {
      return new RegExp(source, flags);
    } catch {}
  return undefined;
}

/** Strings matching `pattern` within the lengths, from fast-check under a seed; undefined when none come. */
function sampled(pattern: RegExp, seed: number, min: number, max: number): string | undefined {
  fastCheck ??= createRequire(import.meta.url)('fast-check') as typeof import('fast-check');
  try {
    const found = fastCheck
      .sample(fastCheck.stringMatching(pattern), { seed, numRuns: 30 })
      .find((s) => s.length >= min && s.length <= max);
    return found;
  } catch {
    return undefined;
  }
}

const typeOf = (schema: Json): string | undefined => {
  const t = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
  if (typeof t === 'string') return t === 'file' ? 'string' : t;
  if (Array.isArray(schema.type) && schema.type.includes('null')) return 'null';
  if (isRecord(schema.properties) || Array.isArray(schema.required) || isRecord(schema.additionalProperties))
    return 'object';
  if (isRecord(schema.items)) return 'array';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return undefined;
  return undefined;
};

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** A member name as a word for a string (`display_name` → `display-name`). */
const word = (at: string) =>
  (at.split('.').pop() ?? 'item')
    .replace(/\[\]$/, '')
    .replace(/([a-z])([A-Z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase() || 'item';

function fit(text: string, min: number, max: number): string {
  let v = text.length < min ? text.padEnd(min, 'x') : text;
  if (v.length > max) v = v.length - max < String(v).length ? v.slice(v.length - max) : v.slice(0, max);
  return v;
}

function stringOf(schema: Json, at: string, made: Made): string {
  const min = num(schema.minLength) ?? 0;
  const max = num(schema.maxLength) ?? Number.POSITIVE_INFINITY;
  const pattern = typeof schema.pattern === 'string' ? regexOf(schema.pattern) : undefined;
  const fits = (s: string) =>
    s.length >= min && s.length <= max && (pattern === undefined || pattern.test(s));
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  const name = word(at);
  const candidates: string[] = [];
  if (format?.type === 'string') candidates.push(String(format.sample(made.n)));
  else if (/e-?mail/.test(name)) candidates.push(`user${made.n}@example.com`);
  else if (/(^|-)(url|uri|href|link|website|homepage)$/.test(name))
    candidates.push(`https://example.com/${name}/${made.n}`);
  candidates.push(
    fit(`${name}-${made.n}`, min, max),
    fit(`${name}${made.n}`, min, max),
    fit(`${made.n}`, min, max),
  );
  for (const e of [
    schema.example,
    ...(Array.isArray(schema.examples) ? schema.examples : []),
    schema.default,
  ])
    if (typeof e === 'string') candidates.push(e);
  const found = candidates.find(fits);
  if (found !== undefined) return found;
  if (pattern !== undefined) {
    const s = sampled(pattern, seedOf(`${at}#${made.n}`), min, max);
    if (s !== undefined) return s;
  }
  return candidates[0] ?? '';
}

function numberOf(schema: Json, integer: boolean, at: string, made: Made): number {
  const exclusiveMin =
    num(schema.exclusiveMinimum) ?? (schema.exclusiveMinimum === true ? num(schema.minimum) : undefined);
  const exclusiveMax =
    num(schema.exclusiveMaximum) ?? (schema.exclusiveMaximum === true ? num(schema.maximum) : undefined);
  const step = integer ? 1 : 0.5;
  let low = exclusiveMin !== undefined ? exclusiveMin + step : num(schema.minimum);
  let high = exclusiveMax !== undefined ? exclusiveMax - step : num(schema.maximum);
  if (integer && low !== undefined) low = Math.ceil(low);
  if (integer && high !== undefined) high = Math.floor(high);
  // An id counts items; other numbers stay small and near the low bound.
  const base = /(^|[-_.])id$|Id$/.test(at) ? made.n : made.n;
  let v = low !== undefined ? low + (base - 1) : high !== undefined && high < base ? high : base;
  if (high !== undefined && v > high) v = low !== undefined ? low : high;
  const multiple = num(schema.multipleOf);
  if (multiple !== undefined && multiple > 0) {
    v = Math.ceil(v / multiple) * multiple;
    if (high !== undefined && v > high) v = Math.floor(high / multiple) * multiple;
    v = Number(v.toFixed(10));
  }
  return integer ? Math.round(v) : v;
}

/**
 * A value of one alternative of `oneOf`/`anyOf` (JSON Schema Core §10.2.1.2–3), objects first: the first whose
 * value passes `whole` (exactly one alternative of a oneOf), else the first made.
 */
function alternative(
  list: unknown[],
  whole: Json,
  made: Made,
  at: string,
  depth: number,
  ancestors: object[],
): { value: unknown } | undefined {
  const schemas = list.filter(isRecord);
  const ordered = [
    ...schemas.filter((s) => typeOf(merged(s)) === 'object'),
    ...schemas.filter((s) => typeOf(merged(s)) !== 'object'),
  ];
  const validate = made.dialect === undefined ? undefined : compileSchema(whole, made.dialect).validate;
  let first: { value: unknown } | undefined;
  for (const alt of ordered) {
    const value = generate(alt, made, at, depth + 1, ancestors);
    if (validate === undefined || validate(value)) return { value };
    first ??= { value };
  }
  return first;
}

/** The value the schema describes for item `made.n`; `at` is the member's path (`author.username`). */
export function generate(input: unknown, made: Made, at = '', depth = 0, ancestors: object[] = []): unknown {
  if (input === true || input === undefined) return `${word(at)}-${made.n}`;
  if (!isRecord(input)) return null;
  const schema = merged(input);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const values = schema.enum.some((e) => e !== null) ? schema.enum.filter((e) => e !== null) : schema.enum;
    return values[(made.n - 1) % values.length];
  }
  const type = typeOf(schema);
  if (type === undefined) {
    const list = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : [];
    const chosen = alternative(list, input, made, at, depth, ancestors);
    if (chosen !== undefined) return chosen.value;
    if (schema.default !== undefined) return schema.default;
    return `${word(at)}-${made.n}`;
  }
  switch (type) {
    case 'object':
      return objectOf(schema, input, made, at, depth, ancestors);
    case 'array':
      return arrayOf(schema, made, at, depth, ancestors);
    case 'string':
      return stringOf(schema, at, made);
    case 'integer':
    case 'number':
      return numberOf(schema, type === 'integer', at, made);
    case 'boolean':
      // Never a privilege by default (an administrator flag, a staff mark): false; other flags alternate.
      return PRIVILEGE_MEMBER.test(word(at).replace(/-/g, '_')) ? false : made.n % 2 === 1;
    default:
      return null;
  }
}

function objectOf(
  schema: Json,
  input: Json,
  made: Made,
  at: string,
  depth: number,
  ancestors: object[],
): Json {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  // An object that is only oneOf/anyOf alternatives (with properties none of its own): the alternative's members.
  const list = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : [];
  let out: Json = {};
  if (list.length > 0 && Object.keys(properties).length === 0) {
    const chosen = alternative(list, input, made, at, depth, ancestors);
    if (isRecord(chosen?.value)) out = chosen.value;
  }
  const inside = [...ancestors, input];
  for (const [name, property] of Object.entries(properties)) {
    if (!isRecord(property) && property !== true) continue;
    const must = required.has(name);
    const p = isRecord(property) ? property : {};
    if (!must && (depth >= FULL_DEPTH || ancestors.includes(property as object))) continue;
    if (!must && made.direction === 'answer' && p.writeOnly === true) continue;
    if (!must && made.direction === 'request' && p.readOnly === true) continue;
    const here = at === '' ? name : `${at}.${name}`;
    if (depth >= MAX_DEPTH || ancestors.includes(property as object)) {
      out[name] = shallow(p);
      continue;
    }
    out[name] = generate(property, made, here, depth + 1, inside);
  }
  // Members the schema requires that it does not describe: a string each.
  for (const name of required) if (!(name in out)) out[name] = `${word(name)}-${made.n}`;
  const minProperties = num(schema.minProperties) ?? 0;
  const extra = isRecord(schema.additionalProperties) ? schema.additionalProperties : undefined;
  for (let i = 1; Object.keys(out).length < minProperties; i++)
    out[`key${i}`] =
      extra === undefined ? `value-${i}` : generate(extra, made, `${at}.key${i}`, depth + 1, inside);
  return out;
}

/** A recursive member the schema requires, below the depth limit: the smallest value of its kind. */
function shallow(schema: Json): unknown {
  const s = merged(schema);
  if (s.nullable === true || (Array.isArray(s.type) && s.type.includes('null'))) return null;
  const type = typeOf(s);
  if (type === 'array') return [];
  if (type === 'string') return '';
  if (type === 'integer' || type === 'number') return num(s.minimum) ?? 0;
  if (type === 'boolean') return false;
  return {};
}

function arrayOf(schema: Json, made: Made, at: string, depth: number, ancestors: object[]): unknown[] {
  const min = num(schema.minItems) ?? 0;
  const max = num(schema.maxItems) ?? Number.POSITIVE_INFINITY;
  const prefix = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : [];
  const items = isRecord(schema.items) ? schema.items : schema.items === false ? undefined : {};
  const length = Math.min(Math.max(min, prefix.length, depth >= FULL_DEPTH ? 0 : 1), max);
  const out: unknown[] = [];
  for (let i = 0; i < length; i++) {
    const item = prefix[i] ?? items;
    if (item === undefined) break;
    // Items differ (uniqueItems): the i-th is made as item n + i.
    out.push(generate(item, { ...made, n: made.n + i }, `${at}[]`, depth + 1, ancestors));
  }
  return out;
}
