/**
 * The embedded redacted profile's members against the profile's own schema (fixtures/schemas/profile.schema.json,
 * "Unknown keys are refused"): a member the schema does not know is refused, the members allowed being read
 * from that file. Only unknown members count: the redaction replaces credentials by "[redacted]" where the
 * schema may want an object (a private JWK), so the profile as embedded need not match the schema otherwise.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { PROFILE_SCHEMA_PATH } from '../../specs/profile/load.ts';

let validator: ValidateFunction | undefined;

function validate(): ValidateFunction {
  if (validator) return validator;
  const { Ajv } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
  // allErrors: every unknown member is found, not only the first error (which may be a "[redacted]" type).
  const ajv = new Ajv({ allErrors: true, strict: true });
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  validator = ajv.compile(JSON.parse(readFileSync(PROFILE_SCHEMA_PATH, 'utf8')) as object);
  return validator;
}

/** The first member of `redacted` the profile schema does not know, as a JSON Pointer; undefined if none. */
export function unknownProfileMember(redacted: unknown): string | undefined {
  const check = validate();
  if (check(redacted)) return undefined;
  const unknown = check.errors?.find((e) => e.keyword === 'additionalProperties');
  return unknown
    ? `${unknown.instancePath}/${String((unknown.params as { additionalProperty: unknown }).additionalProperty)}`
    : undefined;
}
