/**
 * The value an operation that is no collection answers with (a health check, a version, an action): the Media
 * Type Object's `example`, else its first `examples` value (OpenAPI 3.1 §4.8.14), else the schema's own
 * `example` — each only when it passes the schema (a document's example may not) — else a value made from
 * the schema (generate.ts) and brought to it (conform.ts). Deterministic: two starts answer the same. A media
 * type without a schema or example answers a word of its kind (`OK` for text).
 */
import { isRecord } from '../../shared/is-record.ts';
import { conform } from './conform.ts';
import { generate } from './generate.ts';
import { isJsonType, type MediaType } from './media.ts';
import type { Dialect } from './schema-dialect.ts';
import { compileSchema } from './schema-validator.ts';

type Json = Record<string, unknown>;

function documented(media: Json, schema: Json | undefined): unknown[] {
  const out: unknown[] = [];
  if (media.example !== undefined) out.push(media.example);
  if (isRecord(media.examples))
    for (const e of Object.values(media.examples))
      if (isRecord(e) && e.value !== undefined) out.push(e.value);
  if (schema?.example !== undefined) out.push(schema.example);
  if (Array.isArray(schema?.examples)) out.push(...schema.examples);
  return out;
}

function passes(value: unknown, schema: Json | undefined, dialect: Dialect): boolean {
  if (schema === undefined) return true;
  const { validate } = compileSchema(schema, dialect);
  return validate === undefined || validate(value) === true;
}

/** The answer of a media type; undefined when it declares nothing to answer with. */
export function answerOf(media: MediaType | undefined, dialect: Dialect, n = 1): unknown {
  if (media === undefined) return undefined;
  const { schema } = media;
  const found = documented(media.media, schema).find((v) => passes(v, schema, dialect));
  if (found !== undefined) return found;
  if (schema === undefined) return isJsonType(media.type) ? {} : 'OK';
  return conform(generate(schema, { n, direction: 'answer', dialect }), schema, dialect, {
    n,
    direction: 'answer',
  });
}
