/**
 * Looks for secrets in every file a run leaves behind. Playwright's HTML report keeps its data in a zip
 * embedded as base64 (and blob reports are zips), where a plain byte search would see nothing; those are
 * opened (PKWARE APPNOTE 6.3: end of central directory → central directory → local headers) and their
 * entries searched too, and so is the base64 payload of a DSSE envelope (a signed statement).
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { SHORTEST_SEARCHED_SECRET } from '../../specs/lib/redact.ts';

export interface Hit {
  readonly file: string;
  /** Which form of the secret was found: plain, base64, json-escaped, url-encoded. */
  readonly form: string;
  /** The secret's first characters, enough to tell which one without printing it. */
  readonly secret: string;
}

/** Entries of a zip archive: name → uncompressed bytes. Stored (0) and deflated (8) entries only. */
export function unzip(zip: Buffer): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return entries;
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  for (let n = 0; n < count && zip.readUInt32LE(at) === 0x02014b50; n++) {
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataStart, dataStart + compressed);
    if (method === 0) entries.set(name, Buffer.from(data));
    else if (method === 8) entries.set(name, inflateRawSync(data));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function forms(secret: string): [string, string][] {
  const all: [string, string][] = [
    ['plain', secret],
    ['base64', Buffer.from(secret, 'utf8').toString('base64')],
    ['json-escaped', JSON.stringify(secret).slice(1, -1)],
    ['url-encoded', encodeURIComponent(secret)],
  ];
  // Most secrets read the same escaped or encoded; search each distinct form once.
  return all.filter(([, value], i) => all.findIndex(([, other]) => other === value) === i);
}

/** Searches one buffer, then any zip inside it (a .zip file, or the HTML report's embedded base64 zip). */
function scanBuffer(label: string, bytes: Buffer, secrets: readonly string[], hits: Hit[]): void {
  const text = bytes.toString('utf8');
  for (const secret of secrets) {
    for (const [form, value] of forms(secret)) {
      if (value.length >= SHORTEST_SEARCHED_SECRET && text.includes(value))
        hits.push({ file: label, form, secret: `${secret.slice(0, 4)}…` });
    }
  }
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50) {
    for (const [name, entry] of unzip(bytes)) scanBuffer(`${label}!${name}`, entry, secrets, hits);
  }
  for (const match of text.matchAll(/data:application\/zip;base64,([A-Za-z0-9+/=]+)/g)) {
    scanBuffer(`${label}!embedded.zip`, Buffer.from(match[1] ?? '', 'base64'), secrets, hits);
  }
  // A DSSE envelope (a signed statement, conformance.intoto.jsonl) carries its payload base64-encoded.
  for (const match of text.matchAll(/"payload":\s*"([A-Za-z0-9+/=_-]+)"/g)) {
    scanBuffer(`${label}!dsse-payload`, Buffer.from(match[1] ?? '', 'base64'), secrets, hits);
  }
}

/** Every file below `dir` (or `dir` itself when it is a file). */
export function filesBelow(dir: string): string[] {
  if (!statSync(dir).isDirectory()) return [dir];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

export function scanForSecrets(
  paths: readonly string[],
  secrets: readonly string[],
): { files: number; hits: Hit[] } {
  const hits: Hit[] = [];
  let files = 0;
  for (const p of paths) {
    for (const file of filesBelow(p)) {
      files++;
      scanBuffer(file, readFileSync(file), secrets, hits);
    }
  }
  return { files, hits };
}
