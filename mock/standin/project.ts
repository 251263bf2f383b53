/**
 * A stored item as one answer describes it: the members the answer's schema declares (an answer states what
 * it holds: a write-only `password` sent in a create is never read back, OpenAPI 3.1 §4.8.24 / 3.0
 * §4.7.24.1 `writeOnly`), the item's members kept as they are where they pass, what the schema requires and
 * the item lacks made (conform.ts). The numbers that make a missing member are the item's own (from its key),
 * so two reads of one item answer the same.
 */
import { merged } from '../../cli/init/sample-item.ts';
import { isRecord } from '../../shared/is-record.ts';
import { conform } from './conform.ts';
import { seedOf } from './generate.ts';
import type { Dialect } from './schema-dialect.ts';

type Json = Record<string, unknown>;

/** The ordinal an item's made members use: stable per key, from 1 to 997. */
export const ordinalOf = (key: string) => (seedOf(key) % 997) + 1;

export function project(
  item: unknown,
  schema: Json | undefined,
  dialect: Dialect,
  key: string,
  keyMember: string | undefined,
): unknown {
  if (schema === undefined || !isRecord(item)) return item;
  const whole = merged(schema);
  const properties = isRecord(whole.properties) ? whole.properties : undefined;
  let out: Json = item;
  if (properties !== undefined && Object.keys(properties).length > 0) {
    const required = new Set(Array.isArray(whole.required) ? whole.required.map(String) : []);
    out = {};
    for (const [name, value] of Object.entries(item)) {
      const p = properties[name];
      if ((p === undefined && !required.has(name)) || (isRecord(p) && p.writeOnly === true)) continue;
      out[name] = value;
    }
  }
  const keep = new Set(keyMember === undefined ? [] : [keyMember]);
  return conform(out, schema, dialect, { n: ordinalOf(key), direction: 'answer' }, keep);
}
