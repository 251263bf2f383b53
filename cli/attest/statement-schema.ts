/**
 * The statement's JSON Schema, shipped in the package (fixtures/schemas/conformance-statement.schema.json,
 * exported as `gatecheck/schemas/conformance-statement.schema.json`) and checked through the package's one
 * Ajv set-up (shared/json-schema.ts). The first error becomes one line naming the field.
 */
import { resolve } from 'node:path';
import { type ErrorObject, schemaValidator } from '../../shared/json-schema.ts';
import { SCHEMAS_DIR } from '../../shared/paths.ts';

export const STATEMENT_SCHEMA_FILE = 'conformance-statement.schema.json';
export const STATEMENT_SCHEMA_PATH = resolve(SCHEMAS_DIR, STATEMENT_SCHEMA_FILE);

function describe(error: ErrorObject, errors: readonly ErrorObject[]): string {
  const at = error.instancePath === '' ? '/' : error.instancePath;
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${error.instancePath}/${String(p.additionalProperty)} is not a known field`;
    case 'required':
      return `${error.instancePath}/${String(p.missingProperty)} is required`;
    case 'enum':
      return `${at} must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `${at} must be ${JSON.stringify(p.allowedValue)}`;
    case 'anyOf': {
      // A nullable field of the wrong type: each branch said which type it wanted.
      const types = errors
        .filter((e) => e.keyword === 'type' && e.instancePath === error.instancePath)
        .map((e) => String((e.params as { type: unknown }).type));
      return types.length
        ? `${at} must be ${types.join(' or ')}`
        : `${at} ${error.message ?? 'is not valid'}`;
    }
    default:
      return `${at} ${error.message ?? error.keyword}`;
  }
}

/** One line naming the first field that breaks the schema, or undefined when the statement is valid. */
export function statementSchemaError(statement: unknown): string | undefined {
  const validate = schemaValidator(STATEMENT_SCHEMA_PATH);
  if (validate(statement)) return undefined;
  const errors = validate.errors ?? [];
  // Inside an anyOf, a branch's own error (a missing or unknown field) says more than "must match a schema".
  const specific = errors.find((e) => e.keyword !== 'anyOf' && e.keyword !== 'type');
  const first = specific ?? errors.find((e) => e.keyword === 'anyOf') ?? errors[0];
  return first ? describe(first, errors) : 'does not match the schema';
}
