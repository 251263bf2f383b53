/**
 * An item brought to its schema: validated with every error reported (schema-validator.ts), each member an
 * error points into made again from the member's schema (generate.ts), a required member missing made, until
 * it passes (three rounds at most). Members it sent that pass are kept as sent; `keep` names members never
 * touched (the item's key). A schema that does not compile leaves the item as it is.
 */
import { merged } from '../../cli/init/sample-item.ts';
import { isRecord } from '../../shared/is-record.ts';
import { generate, type Made } from './generate.ts';
import type { Dialect } from './schema-dialect.ts';
import { compileSchema } from './schema-validator.ts';

type Json = Record<string, unknown>;

/** The member an error is about: the first segment of its instance path, or the missing one at the top. */
function memberOf(error: { instancePath: string; keyword: string; params: Json }): string | undefined {
  const first = error.instancePath.split('/')[1];
  if (first !== undefined && first !== '') return first.replace(/~1/g, '/').replace(/~0/g, '~');
  if (error.keyword === 'required' && typeof error.params.missingProperty === 'string')
    return error.params.missingProperty;
  return undefined;
}

export function conform(
  value: unknown,
  schema: Json | undefined,
  dialect: Dialect,
  input: Made,
  keep: ReadonlySet<string> = new Set(),
): unknown {
  if (schema === undefined) return value;
  const made: Made = { ...input, dialect };
  const { validate } = compileSchema(schema, dialect, true);
  if (validate === undefined) return value;
  let current = value;
  for (let round = 0; round < 3; round++) {
    if (validate(current)) return current;
    const errors = validate.errors ?? [];
    if (!isRecord(current)) return generate(schema, made);
    const item: Json = current;
    const properties = isRecord(merged(schema).properties) ? (merged(schema).properties as Json) : {};
    const next: Json = { ...item };
    let changed = false;
    for (const error of errors) {
      const extra = (error.params as Json).additionalProperty;
      if (
        error.instancePath === '' &&
        error.keyword === 'additionalProperties' &&
        typeof extra === 'string'
      ) {
        // additionalProperties: false at the top: a member the schema does not describe is left out.
        delete next[extra];
        changed = true;
        continue;
      }
      const member = memberOf(error as never);
      if (member === undefined) {
        // The whole item is wrong (not an object where one is expected, a oneOf matched twice): made anew.
        const whole = generate(schema, made);
        if (isRecord(whole)) for (const k of keep) if (k in item) whole[k] = item[k];
        return whole;
      }
      if (keep.has(member) && member in next) continue;
      if (!(member in properties)) {
        if (error.keyword === 'required' && error.instancePath === '') {
          next[member] = generate(true, made, member);
          changed = true;
        }
        continue;
      }
      next[member] = generate(properties[member], made, member, 1);
      changed = true;
    }
    if (!changed) return current;
    current = next;
  }
  return current;
}
