/**
 * The attested report against its own JSON Schema (specs/report/conformance.schema.json, draft 2020-12, shipped
 * beside every report): members the schema does not know refuse, wherever they are, and the members it allows
 * are read from the schema file — so a member the report gains (a waiver, a baseline marker) is allowed as
 * soon as the schema describes it, with no list here to keep in step. Validated through the package's one Ajv
 * set-up (shared/json-schema.ts), loaded on first use.
 */
import { type ErrorObject, schemaValidator2020 } from '../../shared/json-schema.ts';

export const REPORT_SCHEMA_URL = new URL('../../specs/report/conformance.schema.json', import.meta.url);

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
  const check = schemaValidator2020(REPORT_SCHEMA_URL);
  if (check(report)) return undefined;
  const first = check.errors?.[0];
  return first ? describe(first) : 'does not match the schema';
}
