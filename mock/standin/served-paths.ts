/**
 * Where the mock serves each operation: under the path of the document's first server (`/api/v3/pet/{petId}`),
 * or of the operation's own `servers` — a Path Item's or an Operation's (OpenAPI 3.1 §4.8.10, §4.8.9: they
 * override the document's) — as the API does.
 */
import type { Operation } from '../../cli/init/operations.ts';
import { serverOf } from '../../cli/init/servers.ts';
import { pathOfServer } from './document.ts';

type Json = Record<string, unknown>;

/** The path of the document's first server. */
export function prefixOf(doc: Json): string {
  return pathOfServer(serverOf([doc.servers, [{ url: '/' }]], undefined));
}

/** An operation's own path prefix where its servers differ from the document's, else the document's. */
export function prefixOfOperation(op: Operation, doc: Json, prefix: string): string {
  const documents = serverOf([doc.servers, [{ url: '/' }]], undefined);
  return op.server !== undefined && op.server.written !== documents?.written
    ? pathOfServer(op.server)
    : prefix;
}

/** The served template of each operation: its prefix and the document's path. */
export function servedTemplate(doc: Json): (op: Operation) => string {
  const prefix = prefixOf(doc);
  return (op) => `${prefixOfOperation(op, doc, prefix)}${op.path}`;
}
