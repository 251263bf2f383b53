/**
 * The embedded redacted profile's members against the profile's own schema (fixtures/schemas/profile.schema.json,
 * "Unknown keys are refused"): a member the schema does not know is refused, the members allowed being read
 * from that file. Only unknown members count: the redaction replaces credentials by "[redacted]" where the
 * schema may want an object (a private JWK), so the profile as embedded need not match the schema otherwise.
 */

import { everyErrorValidator } from '../../shared/json-schema.ts';
import { PROFILE_SCHEMA_PATH } from '../../specs/profile/load.ts';

/** The first member of `redacted` the profile schema does not know, as a JSON Pointer; undefined if none. */
export function unknownProfileMember(redacted: unknown): string | undefined {
  // Every error: the first may be a "[redacted]" where the schema wants an object.
  const check = everyErrorValidator(PROFILE_SCHEMA_PATH);
  if (check(redacted)) return undefined;
  const unknown = check.errors?.find((e) => e.keyword === 'additionalProperties');
  return unknown
    ? `${unknown.instancePath}/${String((unknown.params as { additionalProperty: unknown }).additionalProperty)}`
    : undefined;
}
