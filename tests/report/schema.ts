/** Validates a report against specs/report/conformance.schema.json (the documented, versioned shape). */

import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';

const schema = JSON.parse(
  readFileSync(new URL('../../specs/report/conformance.schema.json', import.meta.url), 'utf8'),
) as object;

const ajv = new Ajv2020({ strict: true, allErrors: true });
// RFC 3339 §5.6 date-time, as Date#toISOString writes it (ajv-formats is not a dependency).
ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
const validate = ajv.compile(schema);

/** Schema errors as lines, empty when the report is valid. */
export function schemaErrors(report: unknown): string[] {
  if (validate(report)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}
