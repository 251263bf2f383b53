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
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';

export type { ErrorObject, ValidateFunction };

let instance: Ajv | undefined;

function ajv(): Ajv {
  if (instance !== undefined) return instance;
  const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
  instance = new AjvClass({ allErrors: false, strict: true, verbose: true });
  instance.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
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

let lenient: Ajv | undefined;

/**
 * A validator for a schema a published OpenAPI document states (the mock standing in for its API, mock/standin):
 * not strict — a document's schemas carry OpenAPI's own keywords (`nullable`, `example`, `xml`, `discriminator`)
 * and whatever its authors wrote, which is theirs, not our bug; `nullable` is read as OpenAPI 3.0 means it
 * (Ajv's option). Undefined when Ajv cannot compile the schema: the body is then not checked.
 */
export function documentSchemaValidator(schema: object): ValidateFunction | undefined {
  if (lenient === undefined) {
    const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
    lenient = new AjvClass({ allErrors: false, strict: false, validateFormats: false, logger: false });
  }
  try {
    return lenient.compile(schema);
  } catch {
    return undefined;
  }
}
