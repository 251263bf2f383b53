/**
 * The one Ajv set-up of the package, for the mock's configuration, policy and control API bodies and for
 * the suite's target profile. Strict (a schema typo is our bug, not the user's), first error only (the one
 * line a user is shown), verbose (the failing schema is at hand to say what was expected), and the
 * `errorMessage` keyword: a schema's words for what a value matching it looks like.
 *
 * Ajv is loaded on the first validator asked for (≈ 30 ms): a suite worker reads a profile that global setup
 * has already validated, and never needs it (docs/performance.md "Start-up: what is loaded only when used").
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';

export type { Ajv, ErrorObject, ValidateFunction };

let instance: Ajv | undefined;
let everyError: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

const OPTIONS: Options = { allErrors: false, strict: true, verbose: true };

function configured<T extends Ajv | Ajv2020>(ajv: T): T {
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  // RFC 3339 §5.6 date-time, as Date#toISOString writes it (ajv-formats is not a dependency).
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
  return ajv;
}

function ajv(): Ajv {
  if (instance !== undefined) return instance;
  const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
  instance = configured(new AjvClass(OPTIONS));
  return instance;
}

/** Schema file → the id it is registered under (its `$id`, else its file URL). */
const registered = new Map<string, string>();

/**
 * The validator of the JSON Schema file at `schemaPath`, or of the subschema at `pointer` inside it
 * (RFC 6901, e.g. `/properties/rateLimit`). Each file is read and each validator compiled once.
 */
export function schemaValidator(schemaPath: string, pointer = ''): ValidateFunction {
  let id = registered.get(schemaPath);
  if (id === undefined) {
    const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as { $id?: string };
    id = schema.$id ?? pathToFileURL(schemaPath).href;
    ajv().addSchema(schema, schema.$id === undefined ? id : undefined);
    registered.set(schemaPath, id);
  }
  const validate = ajv().getSchema(pointer === '' ? id : `${id}#${pointer}`);
  if (validate === undefined) throw new TypeError(`${schemaPath} has no subschema at ${pointer}`);
  return validate;
}

/** `schema`'s validator in `instance`, compiled once: registered under its `$id`, else `fallbackId`. */
function compiledIn(instance: Ajv | Ajv2020, schemaText: string, fallbackId: string): ValidateFunction {
  const schema = JSON.parse(schemaText) as { $id?: string };
  const id = schema.$id ?? fallbackId;
  const known = instance.getSchema(id);
  if (known) return known;
  instance.addSchema(schema, schema.$id === undefined ? id : undefined);
  return instance.getSchema(id) as ValidateFunction;
}

/**
 * A validator that reports every error, not only the first: for a caller that looks for one kind among them
 * (cli/attest/profile-members.ts: unknown members of a profile whose credentials were replaced by text).
 */
export function everyErrorValidator(schemaPath: string): ValidateFunction {
  if (everyError === undefined) {
    const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
    everyError = configured(new AjvClass({ ...OPTIONS, allErrors: true }));
  }
  return compiledIn(everyError, readFileSync(schemaPath, 'utf8'), pathToFileURL(schemaPath).href);
}

/**
 * The validator of a draft 2020-12 schema file (the report's, specs/report/conformance.schema.json), compiled
 * once, with the same options and keywords as the others.
 */
export function schemaValidator2020(schemaUrl: URL): ValidateFunction {
  if (draft2020 === undefined) {
    const { Ajv2020: AjvClass } = createRequire(import.meta.url)(
      'ajv/dist/2020.js',
    ) as typeof import('ajv/dist/2020.js');
    draft2020 = configured(new AjvClass(OPTIONS));
  }
  return compiledIn(draft2020, readFileSync(schemaUrl, 'utf8'), schemaUrl.href);
}

/**
 * A new Ajv for the schemas a published OpenAPI document states (the mock standing in for its API,
 * mock/standin/schema-validator.ts), of the document's JSON Schema draft (OpenAPI 3.0 → draft 7, 3.1 → 2020-12):
 * not strict — a document's schemas carry OpenAPI's own keywords and whatever its authors wrote, which is
 * theirs, not our bug — formats checked, nothing logged. The caller adds its formats and keywords.
 */
export function documentAjv(draft: 'draft-07' | '2020-12', allErrors: boolean): Ajv {
  const require = createRequire(import.meta.url);
  const options: Options = { strict: false, allErrors, logger: false, validateFormats: true };
  return draft === '2020-12'
    ? (new (require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020(
        options,
      ) as unknown as Ajv)
    : new (require('ajv') as typeof import('ajv')).Ajv(options);
}
