/**
 * The item the write rules POST, made from the request body's JSON Schema so that it cannot hurt: only the
 * members the schema requires (JSON Schema Validation §6.5.3 `required`) plus a marker name, each a value of
 * its `type`, `format`, `enum`/`const` and bounds (§6.1–6.3, §7.3); `allOf` merged, the first harmless
 * alternative of `oneOf`/`anyOf` (JSON Schema Core §10.2.1); booleans false unless the schema demands true;
 * and never a member that grants privilege or identity (an administrator flag, a role, a permission, an
 * owner, a password): a schema that requires one gives no item at all, and the collection is not written to.
 */
import { isObject } from './document-extensions.ts';

type Json = Record<string, unknown>;

/** Members whose value grants privilege or sets who someone is: never set by a probe. */
export const PRIVILEGE_MEMBER =
  /admin|superuser|super_user|is_?staff|^staff$|sudo|^root$|role|permission|privilege|owner|password|passwd|passphrase|secret|^scopes?$|grants?$|^groups?$|group_?ids?$|access_?level|^acl$|^((access|iam|security|auth\w*|permission)_?)?polic(y|ies)(_?ids?)?$|^level$|^credentials?$|^private_?key$|^is_?superuser$/i;
/**
 * A member named like a privilege whose own description says it is something else (JSON Schema Validation §9.1):
 * a webhook's `secret` that signs its payloads is the receiver's check, no privilege on the target (issue #69:
 * a harmless webhook collection was refused for it). A policy qualified by what it governs (`retention_policy`,
 * issue #69) no longer matches PRIVILEGE_MEMBER at all: only an access, IAM, security or permission policy does.
 */
function signsPayloads(member: string, property: unknown): boolean {
  return (
    /^(webhook_?)?secret$/i.test(member) &&
    isObject(property) &&
    typeof property.description === 'string' &&
    /\b(sign|signs|signed|signing|signature|hmac)\b/i.test(property.description)
  );
}
/** A free-text member that names the item: the marker goes there. */
const NAME_MEMBER = /^(name|title|label|display_?name|displayName|summary|description|comment|note)$/i;

export const MARKER = 'gatecheck-probe';
const MAX_DEPTH = 6;

export type Sample = { readonly value: unknown } | { readonly refused: string };

const refused = (why: string): Sample => ({ refused: why });
const ok = (value: unknown): Sample => ({ value });

/** A schema with its `allOf` merged into it (properties, required, type), recursively. */
export function merged(schema: Json, depth = 0): Json {
  if (!Array.isArray(schema.allOf) || depth > MAX_DEPTH) return schema;
  const out: Json = { ...schema };
  delete out.allOf;
  const properties: Json = { ...(isObject(schema.properties) ? schema.properties : {}) };
  const required = new Set<string>(Array.isArray(schema.required) ? schema.required.map(String) : []);
  for (const part of schema.allOf.filter(isObject).map((p) => merged(p, depth + 1))) {
    if (isObject(part.properties)) Object.assign(properties, part.properties);
    if (Array.isArray(part.required)) for (const r of part.required) required.add(String(r));
    for (const key of ['type', 'format', 'enum', 'const', 'oneOf', 'anyOf', 'items', 'minItems'])
      if (out[key] === undefined && part[key] !== undefined) out[key] = part[key];
  }
  if (Object.keys(properties).length > 0) out.properties = properties;
  if (required.size > 0) out.required = [...required];
  return out;
}

const typeOf = (schema: Json): string | undefined => {
  const t = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
  if (typeof t === 'string') return t;
  if (isObject(schema.properties) || Array.isArray(schema.required)) return 'object';
  if (isObject(schema.items)) return 'array';
  return undefined;
};

const FORMATS: Record<string, string> = {
  email: 'gatecheck-probe@example.com',
  'idn-email': 'gatecheck-probe@example.com',
  uuid: '00000000-0000-4000-8000-000000000000',
  'date-time': '2030-01-01T00:00:00Z',
  date: '2030-01-01',
  time: '00:00:00Z',
  uri: 'https://example.com/gatecheck-probe',
  url: 'https://example.com/gatecheck-probe',
  'uri-reference': '/gatecheck-probe',
  iri: 'https://example.com/gatecheck-probe',
  hostname: 'gatecheck-probe.example.com',
  'idn-hostname': 'gatecheck-probe.example.com',
  // Documentation addresses (RFC 5737, RFC 3849): data in a body, never a destination.
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  byte: 'Z2F0ZWNoZWNrLXByb2Jl',
  duration: 'PT1M',
};

/** A string the schema accepts, or undefined when its pattern fits none init can make. */
function stringSample(schema: Json): string | undefined {
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  const candidates = [
    ...(typeof schema.example === 'string' ? [schema.example] : []),
    ...(Array.isArray(schema.examples) ? schema.examples.filter((e) => typeof e === 'string') : []),
    ...(typeof schema.default === 'string' ? [schema.default] : []),
    ...(format === undefined ? [] : [format]),
    MARKER,
    'gatecheck_probe',
    'gatecheckprobe',
    'GATECHECK',
    'probe1',
    'a',
    '1',
  ] as string[];
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  const fit = (s: string) => {
    let v = s.length < min ? s.padEnd(min, 'x') : s;
    if (v.length > max) v = v.slice(0, max);
    return v;
  };
  let pattern: RegExp | undefined;
  try {
    pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;
  } catch {
    pattern = undefined;
  }
  for (const c of candidates) {
    const v = format !== undefined && c === MARKER ? format : fit(c);
    if (pattern === undefined || pattern.test(v)) return v;
  }
  return undefined;
}

function numberSample(schema: Json, integer: boolean): number {
  for (const e of [schema.example, schema.default])
    if (typeof e === 'number' && (!integer || Number.isInteger(e))) return e;
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  // OpenAPI 3.0 writes exclusiveMinimum as a boolean beside minimum; JSON Schema 2020-12 as the bound.
  const exclusiveMin =
    num(schema.exclusiveMinimum) ?? (schema.exclusiveMinimum === true ? num(schema.minimum) : undefined);
  const min = exclusiveMin !== undefined ? exclusiveMin + 1 : num(schema.minimum);
  const exclusiveMax =
    num(schema.exclusiveMaximum) ?? (schema.exclusiveMaximum === true ? num(schema.maximum) : undefined);
  const max = exclusiveMax !== undefined ? exclusiveMax - 1 : num(schema.maximum);
  let v = min ?? (max !== undefined && max < 1 ? max : 1);
  if (max !== undefined && v > max) v = max;
  const step = num(schema.multipleOf);
  if (step !== undefined && step > 0) v = Math.ceil(v / step) * step;
  return integer ? Math.ceil(v) : v;
}

/** The first alternative that gives a harmless sample: an object alternative first, the way forms default. */
function alternative(list: unknown[], depth: number, at: string): Sample {
  let first: Sample | undefined;
  for (const alt of list.filter(isObject)) {
    const s = sampleOf(alt, depth + 1, at);
    if ('value' in s) return s;
    first ??= s;
  }
  return first ?? refused(`${at || 'the body'}: no alternative of its oneOf/anyOf gives an item`);
}

/**
 * A harmless value the schema accepts, or why there is none. `at` names the member for the refusal
 * (`settings.role`).
 */
export function sampleOf(input: Json, depth = 0, at = ''): Sample {
  if (depth > MAX_DEPTH) return refused(`${at}: nested deeper than ${MAX_DEPTH} levels`);
  const schema = merged(input);
  if (schema.const !== undefined) return ok(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return ok(schema.enum.includes(false) ? false : (schema.enum.find((e) => e !== null) ?? schema.enum[0]));
  const type = typeOf(schema);
  if (type === undefined) {
    const list = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : [];
    if (list.length > 0) return alternative(list, depth, at);
    return ok(MARKER);
  }
  if (type === 'object') return objectSample(schema, depth, at);
  if (type === 'array') {
    const n = typeof schema.minItems === 'number' ? schema.minItems : 0;
    if (n === 0) return ok([]);
    const item = sampleOf(isObject(schema.items) ? schema.items : {}, depth + 1, `${at}[]`);
    if (!('value' in item)) return item;
    return ok(Array.from({ length: n }, () => item.value));
  }
  if (type === 'boolean') return ok(false);
  if (type === 'integer' || type === 'number') return ok(numberSample(schema, type === 'integer'));
  if (type === 'null') return ok(null);
  const text = stringSample(schema);
  return text === undefined
    ? refused(`${at || 'the body'}: no value init can make matches its pattern ${String(schema.pattern)}`)
    : ok(text);
}

function objectSample(schema: Json, depth: number, at: string): Sample {
  const alternatives = Array.isArray(schema.oneOf)
    ? schema.oneOf
    : Array.isArray(schema.anyOf)
      ? schema.anyOf
      : [];
  let base: Json = {};
  if (alternatives.length > 0 && !isObject(schema.properties)) {
    const alt = alternative(alternatives, depth, at);
    if (!('value' in alt)) return alt;
    if (!isObject(alt.value)) return alt;
    base = alt.value;
  }
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  const out: Json = {};
  // The marker first: the suite marks an item at the end of its first string member (specs/kit/collection.ts).
  const name = Object.keys(properties).find((n) => {
    const p = isObject(properties[n]) ? merged(properties[n] as Json) : {};
    return (
      NAME_MEMBER.test(n) &&
      typeOf(p) === 'string' &&
      p.format === undefined &&
      p.enum === undefined &&
      p.pattern === undefined &&
      p.readOnly !== true
    );
  });
  if (name !== undefined) {
    const s = sampleOf(properties[name] as Json, depth + 1, `${at}${at ? '.' : ''}${name}`);
    if ('value' in s) out[name] = s.value;
  }
  // A wrapper (`{"business_service": {...}}`, `{"data": {...}}`) the schema does not mark required: the item is
  // inside it, so it is filled — its required members and marker — rather than sent empty.
  const wrapper =
    required.length === 0 && name === undefined
      ? (() => {
          const objects = Object.keys(properties).filter((n) => {
            const p = isObject(properties[n]) ? merged(properties[n] as Json) : {};
            return typeOf(p) === 'object' && isObject(p.properties) && p.readOnly !== true;
          });
          return objects.length === 1 && !PRIVILEGE_MEMBER.test(objects[0] as string)
            ? objects[0]
            : undefined;
        })()
      : undefined;
  if (wrapper !== undefined) {
    const s = sampleOf(properties[wrapper] as Json, depth + 1, `${at}${at ? '.' : ''}${wrapper}`);
    if ('value' in s) out[wrapper] = s.value;
  }
  for (const member of required) {
    const where = `${at}${at ? '.' : ''}${member}`;
    if (PRIVILEGE_MEMBER.test(member) && !signsPayloads(member, properties[member]))
      return refused(`${where} is required and grants privilege or identity; init never sets it`);
    if (member in out) continue;
    const property = properties[member];
    const s = sampleOf(isObject(property) ? property : {}, depth + 1, where);
    if (!('value' in s)) return s;
    out[member] = s.value;
  }
  return ok({ ...base, ...out });
}
