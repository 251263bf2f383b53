/**
 * The attested report against its own JSON Schema (specs/report/conformance.schema.json, draft 2020-12, shipped
 * beside every report): members the schema does not know refuse, wherever they are, and the members it allows
 * are read from the schema file — so a member the report gains (a waiver, a baseline marker) is allowed as
 * soon as the schema describes it, with no list here to keep in step. Ajv is loaded on first use.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';

export const REPORT_SCHEMA_URL = new URL('../../specs/report/conformance.schema.json', import.meta.url);

let validator: ValidateFunction | undefined;

function validate(): ValidateFunction {
  if (validator) return validator;
  const { Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const ajv = new Ajv2020({ strict: true, allErrors: false });
  // RFC 3339 §5.6 date-time, as Date#toISOString writes it (ajv-formats is not a dependency).
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
  validator = ajv.compile(JSON.parse(readFileSync(REPORT_SCHEMA_URL, 'utf8')) as object);
  return validator;
}

function describe(error: ErrorObject): string {
  const at = error.instancePath === '' ? '/' : error.instancePath;
  const p = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties')
    return `${error.instancePath}/${String(p.additionalProperty)} is not a known field`;
  if (error.keyword === 'required') return `${error.instancePath}/${String(p.missingProperty)} is required`;
  return `${at} ${error.message ?? error.keyword}`;
}

/** One line naming the first member that breaks the report's schema, or undefined when it is valid. */
export function reportSchemaError(report: unknown): string | undefined {
  const check = validate();
  if (check(report)) return undefined;
  const first = check.errors?.[0];
  return first ? describe(first) : 'does not match the schema';
}
