/**
 * The server an operation is sent to (OpenAPI 3.1 §4.8.5 Server Object; §4.8.9 and §4.8.10: `servers` on an
 * Operation or a Path Item replaces the document's for it), with its variables at their defaults
 * (§4.8.6: "the default value to use for substitution") and a relative URL resolved "relative to the
 * location where the document containing the Server Object is being served" (§4.8.5) — which a document
 * read from a file does not have.
 */
import { isObject } from './document-extensions.ts';

type Json = Record<string, unknown>;

export interface Server {
  /** Absolute http(s) URL without a trailing slash; undefined when relative and the document is a file. */
  readonly url: string | undefined;
  /** A relative server's path (`/api`), kept on the paths when no absolute URL can be had. */
  readonly prefix: string;
  /** What the to-do list says about it: variables set to defaults, their other allowed values. */
  readonly notes: readonly string[];
  /** How it was written in the document, to group operations by server. */
  readonly written: string;
}

function substitute(server: Json, notes: string[]): string {
  const variables = isObject(server.variables) ? server.variables : {};
  return String(server.url ?? '').replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    if (!isObject(variable) || variable.default === undefined) {
      notes.push(`server variable {${name}} has no default: give the target's value`);
      return whole;
    }
    const others = Array.isArray(variable.enum)
      ? variable.enum.map(String).filter((v) => v !== String(variable.default))
      : [];
    notes.push(
      `server variable {${name}} = ${String(variable.default)} (its default${others.length ? `; the document also allows ${others.join(', ')}` : ''})`,
    );
    return String(variable.default);
  });
}

/** The first server of the list that applies, resolved; `documentUrl` is where the document was read from. */
export function serverOf(lists: readonly unknown[], documentUrl: string | undefined): Server | undefined {
  const list = lists.find((l) => Array.isArray(l) && l.some(isObject)) as unknown[] | undefined;
  const first = list?.find(isObject);
  if (first === undefined) return undefined;
  const notes: string[] = [];
  const written = String(first.url ?? '');
  const url = substitute(first, notes);
  if (/^https?:\/\//i.test(url)) return { url: url.replace(/\/+$/, ''), prefix: '', notes, written };
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.includes('{'))
    return { url: undefined, prefix: '', notes, written };
  if (documentUrl !== undefined && /^https?:\/\//i.test(documentUrl)) {
    const resolved = new URL(url || '.', documentUrl).href.replace(/\/+$/, '');
    return {
      url: resolved,
      prefix: '',
      notes: [...notes, `relative server ${written || '(empty)'} resolved against ${documentUrl}`],
      written,
    };
  }
  const prefix = `/${url.replace(/^\.?\/*/, '').replace(/\/+$/, '')}`.replace(/^\/$/, '');
  return { url: undefined, prefix, notes, written };
}
