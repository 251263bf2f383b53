/**
 * Validates control API bodies against the same JSON Schema as the configuration file
 * (fixtures/schemas/mock-config.schema.json): `PUT /__gatecheck/limits` takes what the file's `rateLimit`
 * takes, `PUT /__gatecheck/faults` what `faults` takes. One schema, so the two cannot drift apart.
 */

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { FIXTURES_DIR } from '../config.ts';

const SCHEMA_PATH = resolve(FIXTURES_DIR, 'schemas/mock-config.schema.json');

let ajv: Ajv | undefined;
let schemaId = '';
const compiled = new Map<string, ValidateFunction>();

/** `section`: a top-level property of the config schema (`rateLimit`, `faults`). */
function validatorFor(section: string): ValidateFunction {
  let validate = compiled.get(section);
  if (validate !== undefined) return validate;
  if (ajv === undefined) {
    ajv = new Ajv({ allErrors: false, strict: true });
    ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
    const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as { $id: string };
    schemaId = schema.$id;
    ajv.addSchema(schema);
  }
  validate = ajv.getSchema(`${schemaId}#/properties/${section}`);
  if (validate === undefined) throw new TypeError(`mock-config.schema.json has no section ${section}`);
  compiled.set(section, validate);
  return validate;
}

/** undefined when valid; else one line naming the field, e.g. `groups.default.limit: must be >= 1`. */
export function checkSection(section: string, value: unknown): string | undefined {
  const validate = validatorFor(section);
  if (validate(value)) return undefined;
  const [first] = validate.errors ?? [];
  return first === undefined ? 'invalid' : describeError(first);
}

function describeError(error: ErrorObject): string {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
  const params = error.params as Record<string, unknown>;
  let what = error.message ?? 'is invalid';
  if (error.keyword === 'additionalProperties') what = `unknown key ${String(params.additionalProperty)}`;
  if (error.keyword === 'enum')
    what = `must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
  return path === '' ? what : `${path}: ${what}`;
}
