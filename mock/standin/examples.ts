/**
 * The bodies the mock answers with, from the document: a Media Type Object's `example`, else its first
 * `examples` value (OpenAPI 3.1 §4.8.14), else the schema's own example, else a value built from the schema —
 * deterministic, so two starts serve the same data. Leaves come from the schema's `default`, else init's `sampleOf`
 * (cli/init/sample-item.ts, the same harmless guess init makes for a request body; where it finds no value, the
 * marker name); objects get every property, arrays one item.
 */
import { MARKER, sampleOf } from '../../cli/init/sample-item.ts';
import { isRecord } from '../../shared/is-record.ts';

type Json = Record<string, unknown>;

/** The JSON media type of a `content` map, if any (`application/json`, `application/problem+json`, …). */
export function jsonMedia(content: unknown): Json | undefined {
  if (!isRecord(content)) return undefined;
  const type = Object.keys(content).find((t) => /^application\/([\w.+-]*\+)?json\b/i.test(t) || t === '*/*');
  const media = type === undefined ? undefined : content[type];
  return isRecord(media) ? media : undefined;
}

export function exampleOfSchema(schema: Json, depth = 0): unknown {
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  for (const key of ['allOf', 'oneOf', 'anyOf'])
    if (depth < 6 && Array.isArray(schema[key]) && isRecord(schema[key][0])) {
      if (key !== 'allOf') return exampleOfSchema(schema[key][0] as Json, depth + 1);
      return Object.assign(
        {},
        ...(schema.allOf as unknown[]).filter(isRecord).map((s) => {
          const part = exampleOfSchema(s, depth + 1);
          return isRecord(part) ? part : {};
        }),
      );
    }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (depth < 4 && (type === 'object' || isRecord(schema.properties)) && schema.default === undefined) {
    const out: Json = {};
    const properties = isRecord(schema.properties) ? schema.properties : {};
    for (const [name, property] of Object.entries(properties))
      if (isRecord(property) && property.writeOnly !== true) out[name] = exampleOfSchema(property, depth + 1);
    return out;
  }
  if (depth < 4 && type === 'array' && isRecord(schema.items) && schema.default === undefined)
    return [exampleOfSchema(schema.items, depth + 1)];
  if (schema.default !== undefined) return schema.default;
  const sample = sampleOf(schema, depth);
  return 'value' in sample ? sample.value : MARKER;
}

/** The example answer of a Media Type Object, or undefined when it holds neither example nor schema. */
export function exampleOfMedia(media: Json | undefined): unknown {
  if (media === undefined) return undefined;
  if (media.example !== undefined) return media.example;
  if (isRecord(media.examples)) {
    const first = Object.values(media.examples).find((e) => isRecord(e) && e.value !== undefined) as
      | Json
      | undefined;
    if (first !== undefined) return first.value;
  }
  return isRecord(media.schema) ? exampleOfSchema(media.schema) : undefined;
}
