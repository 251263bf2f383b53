/**
 * Answers in the media type the document declares (OpenAPI 3.1 §4.8.14 Media Type Object; RFC 9110 §12.5.1
 * Accept): the first declared type the request accepts, else the first declared; a JSON type (`application/json`,
 * `+json`, `*\/*`) as JSON; `text/plain` as the value's text (a string as it is: Docker's `OK`); `text/csv` as
 * RFC 4180 records, a header line of the members and a line per item; `text/html` and XML as a small document
 * of that type; `application/x-www-form-urlencoded` as form pairs; anything else (octet-stream, images, PDF) as
 * the bytes of the value's text.
 */
import { isRecord } from '../../shared/is-record.ts';

type Json = Record<string, unknown>;

export interface MediaType {
  /** The declared type, lower-case, without parameters (`text/csv`). */
  readonly type: string;
  readonly media: Json;
  readonly schema: Json | undefined;
}

export const isJsonType = (type: string) => /^application\/([\w.+-]*\+)?json$/.test(type) || type === '*/*';

export function mediaTypesOf(content: unknown): MediaType[] {
  if (!isRecord(content)) return [];
  return Object.entries(content).map(([type, media]) => {
    const m = isRecord(media) ? media : {};
    return {
      type: type.split(';')[0]?.trim().toLowerCase() ?? type,
      media: m,
      schema: isRecord(m.schema) ? m.schema : undefined,
    };
  });
}

/** RFC 9110 §12.5.1: the first declared type a range of Accept admits (`*\/*`, `text/*`, q=0 refuses). */
export function chooseMedia(
  declared: readonly MediaType[],
  accept: string | undefined,
): MediaType | undefined {
  if (declared.length <= 1 || accept === undefined || accept.trim() === '') return declared[0];
  const ranges = accept.split(',').map((r) => {
    const [range = '', ...params] = r.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return { range, q: q === undefined ? 1 : Number(q.slice(2)) };
  });
  const admits = (type: string) =>
    ranges.some(({ range, q }) => {
      if (!(q > 0)) return false;
      if (range === '*/*' || range === type) return true;
      return range.endsWith('/*') && type.startsWith(range.slice(0, -1));
    });
  return declared.find((m) => admits(m.type)) ?? declared[0];
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (typeof value !== 'object') return String(value);
  return JSON.stringify(value);
}

/** RFC 4180 §2: a field with a comma, quote or line break is quoted, its quotes doubled. */
function csvField(value: unknown): string {
  const t = isRecord(value) || Array.isArray(value) ? JSON.stringify(value) : text(value);
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

function csv(value: unknown): string {
  if (typeof value === 'string') return value;
  const rows = Array.isArray(value) ? value : isRecord(value) ? [value] : [value];
  const records = rows.filter(isRecord);
  if (records.length === 0) return rows.map(csvField).join('\r\n') + (rows.length ? '\r\n' : '');
  const header = [...new Set(records.flatMap((r) => Object.keys(r)))];
  return [header.map(csvField).join(','), ...records.map((r) => header.map((h) => csvField(r[h])).join(','))]
    .map((line) => `${line}\r\n`)
    .join('');
}

const escapeXml = (t: string) =>
  t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function xmlOf(name: string, value: unknown): string {
  const tag = /^[A-Za-z_][\w.-]*$/.test(name) ? name : 'item';
  if (Array.isArray(value)) return value.map((v) => xmlOf(tag, v)).join('');
  if (isRecord(value))
    return `<${tag}>${Object.entries(value)
      .map(([k, v]) => xmlOf(k, v))
      .join('')}</${tag}>`;
  return `<${tag}>${escapeXml(text(value))}</${tag}>`;
}

export function serialize(media: MediaType | undefined, value: unknown): { type: string; body: Buffer } {
  const type = media?.type ?? 'application/json';
  if (isJsonType(type)) {
    const json = type === '*/*' ? 'application/json' : type;
    return { type: `${json}; charset=utf-8`, body: Buffer.from(JSON.stringify(value) ?? 'null') };
  }
  if (type === 'text/csv') return { type: 'text/csv; charset=utf-8', body: Buffer.from(csv(value)) };
  if (type === 'text/html')
    return {
      type: 'text/html; charset=utf-8',
      body: Buffer.from(`<!doctype html><title>gatecheck mock</title><pre>${escapeXml(text(value))}</pre>\n`),
    };
  if (/[/+]xml$/.test(type)) {
    const xml = isRecord(media?.schema?.xml) ? media?.schema?.xml : undefined;
    const root = typeof xml?.name === 'string' ? xml.name : Array.isArray(value) ? 'items' : 'item';
    const inner = Array.isArray(value) ? value.map((v) => xmlOf('item', v)).join('') : undefined;
    return {
      type: `${type}; charset=utf-8`,
      body: Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?>${inner === undefined ? xmlOf(root, value) : `<${root}>${inner}</${root}>`}`,
      ),
    };
  }
  if (type === 'application/x-www-form-urlencoded') {
    const pairs: [string, string][] = isRecord(value)
      ? Object.entries(value).map(([k, v]) => [k, text(v)])
      : [['value', text(value)]];
    return { type, body: Buffer.from(new URLSearchParams(pairs).toString()) };
  }
  if (type.startsWith('text/')) return { type: `${type}; charset=utf-8`, body: Buffer.from(text(value)) };
  return { type, body: Buffer.from(text(value)) };
}
