/**
 * Validators for the schemas a document states, compiled by Ajv after schema-dialect.ts has made each one a
 * JSON Schema of its dialect (OpenAPI 3.0 → draft 7, 3.1 → 2020-12): not strict (a document's schemas carry
 * its authors' keywords, not our bug), with the formats of formats.ts checked and `x-gatecheck-pattern` (a
 * pattern valid only without the `u` flag). A schema that still does not compile yields the reason, never a
 * validator that silently accepts everything: the caller lists it (the banner, the journal).
 */
import { type Ajv, documentAjv, type ErrorObject, type ValidateFunction } from '../../shared/json-schema.ts';
import { FORMATS } from './formats.ts';
import { type Dialect, LOOSE_PATTERN, toJsonSchema } from './schema-dialect.ts';

export type { ErrorObject, ValidateFunction };

export type Compiled =
  | { readonly validate: ValidateFunction; readonly notes: readonly string[] }
  | { readonly validate: undefined; readonly notes: readonly string[]; readonly reason: string };

const instances = new Map<string, Ajv>();

function ajvFor(dialect: Dialect, allErrors: boolean): Ajv {
  const key = `${dialect} ${allErrors}`;
  let ajv = instances.get(key);
  if (ajv !== undefined) return ajv;
  ajv = documentAjv(dialect === '3.1' ? '2020-12' : 'draft-07', allErrors);
  for (const [name, format] of Object.entries(FORMATS))
    ajv.addFormat(
      name,
      format.type === 'number'
        ? { type: 'number', validate: format.check as (v: number) => boolean }
        : { type: 'string', validate: format.check as RegExp },
    );
  ajv.addKeyword({
    keyword: LOOSE_PATTERN,
    type: 'string',
    schemaType: 'string',
    compile: (source: string) => {
      const re = new RegExp(source);
      return (value: string) => re.test(value);
    },
  });
  instances.set(key, ajv);
  return ajv;
}

const cache = new Map<string, WeakMap<object, Compiled>>();
const conversions = new Map<Dialect, WeakMap<object, ReturnType<typeof toJsonSchema>>>();

/** The schema made a JSON Schema of its dialect (schema-dialect.ts), once per schema object. */
function converted(schema: object, dialect: Dialect): ReturnType<typeof toJsonSchema> {
  let byObject = conversions.get(dialect);
  if (byObject === undefined) {
    byObject = new WeakMap();
    conversions.set(dialect, byObject);
  }
  let made = byObject.get(schema);
  if (made === undefined) {
    made = toJsonSchema(schema, dialect);
    byObject.set(schema, made);
  }
  return made;
}

export interface Checked {
  readonly notes: readonly string[];
  /** Why Ajv refuses the schema (its meta-schema's first complaint); undefined when it takes it. */
  readonly reason?: string;
}

/**
 * Whether the schema will compile, without compiling it: its JSON Schema form checked against the dialect's
 * meta-schema (Ajv `validateSchema`), milliseconds for a schema where compiling takes more. A document of a
 * thousand operations lists what it cannot check at start-up, and compiles each body's schema on first use.
 */
export function checkSchema(schema: object, dialect: Dialect): Checked {
  const { schema: json, notes } = converted(schema, dialect);
  const ajv = ajvFor(dialect, false);
  if (typeof json === 'boolean' || ajv.validateSchema(json) === true) return { notes };
  const first = ajv.errors?.[0];
  return { notes, reason: `schema is invalid: ${first?.instancePath || '/'} ${first?.message ?? ''}`.trim() };
}

/** `schema`'s validator in `dialect`, compiled once per schema object; `allErrors` for callers that mend every error. */
export function compileSchema(schema: object, dialect: Dialect, allErrors = false): Compiled {
  const key = `${dialect} ${allErrors}`;
  let byObject = cache.get(key);
  if (byObject === undefined) {
    byObject = new WeakMap();
    cache.set(key, byObject);
  }
  const known = byObject.get(schema);
  if (known !== undefined) return known;
  const { schema: json, notes } = converted(schema, dialect);
  let compiled: Compiled;
  try {
    compiled = { validate: ajvFor(dialect, allErrors).compile(json as object), notes };
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'not compiled';
    compiled = { validate: undefined, notes, reason: reason.slice(0, 200) };
  }
  byObject.set(schema, compiled);
  return compiled;
}
