/**
 * Reads an OpenAPI document — JSON or YAML, a file or an http(s) URL — and resolves its `$ref`s, with
 * @apidevtools/swagger-parser (maintained, parses both formats, follows external and remote references,
 * knows OpenAPI 3.0 and 3.1). Leniently, as a reader of published documents must:
 * - Swagger 2.0 is converted to OpenAPI 3.0 first, with @scalar/openapi-upgrader (maintained with the Scalar
 *   API tools, MIT, three small packages, no network access of its own), and a line says so;
 * - YAML that swagger-parser's reader (js-yaml) refuses is read again with the `yaml` package, as lenient as
 *   PyYAML, and a line says so; the document's own parse error is shown only when both refuse;
 * - a `$ref` the document does not resolve (a dangling pointer, a missing file) is reported and left in
 *   place: init never picks an operation that holds one (operations.ts), and everything else is read.
 * A document it cannot read at all, or of another version, is a usage error of one line.
 */

import { readFile } from 'node:fs/promises';
import SwaggerParser from '@apidevtools/swagger-parser';
import { upgrade } from '@scalar/openapi-upgrader';
import { parseDocument } from 'yaml';
import { checkReachable } from '../../specs/lib/reachability.ts';
import { UsageError } from '../exit-codes.ts';

type Json = Record<string, unknown>;

export interface ReadDocument {
  readonly doc: Json;
  /** What reading it took, for the head of the to-do list. */
  readonly notes: string[];
}

/** At most this many unresolved references are listed by pointer. */
const LISTED = 5;

const RESOLVE = {
  // The user named this document, loopback or private address included: the library's guard against
  // server-side request forgery (safeUrlResolver) protects servers, not a command run by its user.
  http: { safeUrlResolver: false, timeout: 10_000, redirects: 3 },
};

/** One line for what went wrong: the system's own words for a file, never the same path three times. */
function reason(error: unknown, source: string): string {
  const e = error as NodeJS.ErrnoException & { ioErrorCode?: string; status?: number };
  const code = e.ioErrorCode ?? e.code;
  const file = /open '([^']+)'/.exec(error instanceof Error ? error.message : '')?.[1];
  if (code === 'ENOENT')
    return file === undefined || file === source ? 'no such file' : `no such file ${file}`;
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  const missing = /^Error opening file (\S+?):? ENOENT/.exec(message);
  if (missing?.[1] !== undefined) return `no such file ${missing[1]}`;
  if (/is not a valid JSON Schema/i.test(message))
    return 'it is neither JSON nor YAML holding an object, as an OpenAPI document is';
  if (/is not a valid Openapi API definition/i.test(message))
    return 'it is JSON or YAML, but not an OpenAPI document (no "openapi" or "swagger" field)';
  return message
    .replace(/^Error (opening|reading|downloading) file\s+\S+:?\s*/i, '')
    .replaceAll(source, 'it')
    .trim();
}

const pointer = (path: unknown) =>
  Array.isArray(path)
    ? `#/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`
    : '#';

/**
 * The document read by the `yaml` package (YAML 1.2, as lenient as PyYAML where js-yaml — swagger-parser's
 * reader — is not: a mapping that writes a key twice keeps the last value, where js-yaml refuses a "duplicated
 * mapping key"). Undefined when it refuses too, or the text cannot be had.
 */
async function readLeniently(source: string): Promise<Json | undefined> {
  let text: string;
  try {
    text = /^https?:\/\//i.test(source)
      ? await (await fetch(source, { signal: AbortSignal.timeout(RESOLVE.http.timeout) })).text()
      : await readFile(source, 'utf8');
  } catch {
    return undefined;
  }
  const document = parseDocument(text, { strict: false, uniqueKeys: false, prettyErrors: false });
  if (document.errors.length > 0) return undefined;
  const value = document.toJS({ maxAliasCount: -1 }) as unknown;
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

/**
 * Why a URL could not be downloaded, in Node's words for it (connection refused, host name not found, timed
 * out, the HTTP status), asked again with one GET: the parser says only "fetch failed" (issue #40).
 */
async function downloadReason(error: unknown, source: string): Promise<string> {
  const said = reason(error, source);
  if (!/^https?:\/\//.test(source) || !/fetch failed|unable to resolve/i.test(said)) return said;
  const answer = await checkReachable(source, 5000);
  if (!answer.reachable) return `no answer from ${new URL(source).host} (${answer.reason})`;
  return answer.status >= 400 ? `it answered ${answer.status}` : said;
}

export async function readOpenApi(source: string): Promise<ReadDocument> {
  const notes: string[] = [];
  let parsed: Json;
  try {
    parsed = (await new SwaggerParser().parse(source, { resolve: RESOLVE })) as unknown as Json;
  } catch (error) {
    // The document's own parse error is shown only when every reader refuses it.
    const lenient = /\.json$/i.test(source) ? undefined : await readLeniently(source);
    if (lenient === undefined)
      throw new UsageError(`init: cannot read ${source}: ${await downloadReason(error, source)}`);
    try {
      parsed = (await new SwaggerParser().parse(
        source,
        lenient as never,
        { resolve: RESOLVE } as never,
      )) as unknown as Json;
    } catch {
      throw new UsageError(`init: cannot read ${source}: ${reason(error, source)}`);
    }
    notes.push(
      `document: read with the yaml package — swagger-parser's YAML reader refused it (${reason(error, source)}); a quirk common readers accept`,
    );
  }
  const version = typeof parsed.openapi === 'string' ? parsed.openapi : String(parsed.swagger ?? 'unknown');
  if (/^2\.0$/.test(version)) {
    try {
      parsed = upgrade(parsed, '3.0') as unknown as Json;
    } catch (error) {
      throw new UsageError(
        `init: cannot convert the Swagger 2.0 document ${source}: ${reason(error, source)}`,
      );
    }
    notes.push(
      `document: Swagger 2.0, converted to OpenAPI ${String(parsed.openapi)} with @scalar/openapi-upgrader before reading; check what follows against the original`,
    );
  } else if (!/^3\.[01]\./.test(version))
    throw new UsageError(
      `init: ${source} is OpenAPI ${version}; init reads OpenAPI 3.0, 3.1 and Swagger 2.0`,
    );

  let doc: Json;
  try {
    doc = (await new SwaggerParser().dereference(
      source,
      parsed as never,
      {
        resolve: RESOLVE,
        continueOnError: true,
      } as never,
    )) as unknown as Json;
  } catch (error) {
    const group = error as { errors?: { path?: unknown; message?: string }[]; files?: { schema?: unknown } };
    const schema = group.files?.schema;
    if (!Array.isArray(group.errors) || schema === null || typeof schema !== 'object')
      throw new UsageError(`init: cannot read ${source}: ${reason(error, source)}`);
    doc = schema as Json;
    const listed = group.errors.slice(0, LISTED).map((e) => `${pointer(e.path)} (${reason(e, source)})`);
    notes.push(
      `document: ${group.errors.length} $ref${group.errors.length === 1 ? '' : 's'} the document does not resolve, left in place and ignored — no operation holding one is picked: ${listed.join('; ')}${group.errors.length > LISTED ? '; …' : ''}`,
    );
  }
  return { doc, notes };
}
