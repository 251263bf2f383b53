/**
 * Validates control API bodies against the same JSON Schema as the configuration file
 * (fixtures/schemas/mock-config.schema.json): `PUT /__gatecheck/limits` takes what the file's `rateLimit`
 * takes, `PUT /__gatecheck/faults` what `faults` takes. One schema, so the two cannot drift apart.
 */

import { resolve } from 'node:path';
import { type ErrorObject, schemaValidator } from '../../shared/json-schema.ts';
import { SCHEMAS_DIR } from '../../shared/paths.ts';

const SCHEMA_PATH = resolve(SCHEMAS_DIR, 'mock-config.schema.json');

/** undefined when valid; else one line naming the field, e.g. `groups.default.limit: must be >= 1`. */
export function checkSection(section: string, value: unknown): string | undefined {
  // `section`: a top-level property of the config schema (`rateLimit`, `faults`).
  const validate = schemaValidator(SCHEMA_PATH, `/properties/${section}`);
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
