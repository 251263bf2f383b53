/**
 * The server an operation is sent to (OpenAPI 3.1 §4.8.5 Server Object; §4.8.9 and §4.8.10: `servers` on an
 * Operation or a Path Item replaces the document's for it), with its variables at their defaults
 * (§4.8.6: "the default value to use for substitution") and a relative URL resolved "relative to the
 * location where the document containing the Server Object is being served" (§4.8.5) — which a document
 * read from a file does not have.
 */
import { UsageError } from '../exit-codes.ts';
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

/**
 * The server of the first list that applies, resolved; `documentUrl` is where the document was read from.
 * `prefer`: the url (as written) of the server chosen among the document's, taken from a list that holds it
 * (a path's `servers` repeating the document's); else the list's first.
 */
export function serverOf(
  lists: readonly unknown[],
  documentUrl: string | undefined,
  prefer?: string,
): Server | undefined {
  const list = lists.find((l) => Array.isArray(l) && l.some(isObject)) as unknown[] | undefined;
  const first =
    (prefer === undefined ? undefined : list?.find((s) => isObject(s) && s.url === prefer)) ??
    list?.find(isObject);
  if (!isObject(first)) return undefined;
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

/** Words of a server that is not production: the suite's traffic belongs there (docs/cli.md "init"). */
const NOT_PRODUCTION =
  /\b(sandbox|staging|stage|stg|test|testnet|testing|dev|development|local|localhost|qa|uat|preview|mock)\b|127\.0\.0\.1|\[::1\]/i;
/** A public demo host: somebody else's shared instance, never a default without a to-do. */
const DEMO = /\b(demo|petstore\d*|playground|sample|example)\b/i;

/**
 * A server description that says not to use the server — "Local development server (do not use)", one of
 * issue #69's documents, which the words `local` and `development` made the pick. Such a server is listed,
 * never taken unless `--server` names it.
 */
const DO_NOT_USE = /\b(?:do not|don't|never) use\b|\bnot (?:to be used|for (?:public |external )?use)\b/i;
/**
 * A server description that says the host is somebody else's, to be replaced by the reader's own — Coolify's
 * "Coolify Cloud API. Change the host to your own instance if you are self-hosting."
 */
const REPLACE_HOST =
  /\b(?:change|replace|substitute|swap) (?:the|this) (?:host|hostname|domain|base ?url|url)\b|\byour own (?:instance|host|server|domain|deployment)\b/i;

/** The sentence of a server's description that matches `pattern`, whitespace collapsed. */
function sentenceOf(server: Json, pattern: RegExp): string | undefined {
  const text = typeof server.description === 'string' ? server.description.replace(/\s+/g, ' ') : '';
  return text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .find((s) => pattern.test(s));
}

export interface ServerChoice {
  /** The chosen Server Object as written; undefined when the document lists none. */
  readonly raw: Json | undefined;
  /** 1-based number in the document's list. */
  readonly number: number | undefined;
  /** Every server of the document, numbered, as the to-do line lists them. */
  readonly listed: readonly string[];
  /** Why this one: `--server`, a non-production server, the only one. */
  readonly why: string;
  /** Its name says it is a public demo host. */
  readonly demo: boolean;
  /**
   * Its description says not to use it, or to replace its host with one's own: quoted; the profile then has no
   * baseUrl (unless `--server` chose it), and the to-do asks for the target's.
   */
  readonly withheld: string | undefined;
  /** The servers passed over because their description says not to use them, as listed, with the sentence. */
  readonly warned: readonly string[];
}

/** A server URL's words, its top-level domain left out (`api.acme.test` is not a test server by `.test`). */
function wordsOfUrl(url: string): string {
  try {
    const u = new URL(url.replace(/\{[^}]*\}/g, 'x'));
    const ip = /^[\d.]+$|^\[/.test(u.hostname);
    return `${ip ? u.hostname : u.hostname.split('.').slice(0, -1).join(' ') || u.hostname} ${u.pathname}`;
  } catch {
    return url;
  }
}

const describe = (s: Json) =>
  `${String(s.url ?? '')}${typeof s.description === 'string' && s.description.trim() ? ` (${s.description.trim()})` : ''}`;

/**
 * Which of the document's servers the profile's baseUrl is: the one `--server` names (its number from 1, or
 * its URL), else the first whose URL or description says sandbox, staging, test or local (a conformance run
 * sends invalid credentials and bursts on purpose: not production's place), else the first that is not a
 * public demo host, else the first — never one whose description says not to use it while another is listed.
 * Throws a one-line usage error for a `--server` the list does not hold.
 */
export function chooseServer(doc: Json, choice: string | undefined): ServerChoice {
  const list = (Array.isArray(doc.servers) ? doc.servers : []).filter(isObject);
  const listed = list.map((s, i) => `${i + 1} ${describe(s)}`);
  const text = (s: Json) => `${wordsOfUrl(String(s.url ?? ''))} ${String(s.description ?? '')}`;
  const usable = (s: Json) => sentenceOf(s, DO_NOT_USE) === undefined;
  const warned = list
    .map((s, i) =>
      usable(s) ? undefined : `${i + 1} ${String(s.url ?? '')}: "${sentenceOf(s, DO_NOT_USE)}"`,
    )
    .filter((w): w is string => w !== undefined);
  const pick = (i: number, why: string, chosen = false): ServerChoice => {
    const raw = list[i] as Json;
    const withheld = chosen ? undefined : (sentenceOf(raw, DO_NOT_USE) ?? sentenceOf(raw, REPLACE_HOST));
    return { raw, number: i + 1, listed, why, demo: DEMO.test(text(raw)), withheld, warned };
  };
  if (choice !== undefined) {
    const n = /^\d+$/.test(choice)
      ? Number(choice) - 1
      : list.findIndex(
          (s) => s.url === choice || String(s.url).replace(/\/+$/, '') === choice.replace(/\/+$/, ''),
        );
    if (n < 0 || n >= list.length)
      throw new UsageError(
        `init: --server ${choice}: the document lists ${list.length === 0 ? 'no server' : `${list.length} (${listed.join('; ')})`}; give a number from 1 or one of their URLs`,
      );
    return pick(n, 'chosen with --server', true);
  }
  if (list.length === 0)
    return {
      raw: undefined,
      number: undefined,
      listed,
      why: 'the document lists none',
      demo: false,
      withheld: undefined,
      warned,
    };
  if (list.length === 1) return pick(0, 'the only one');
  if (!list.some(usable)) return pick(0, 'the first; every server says not to use it');
  const safe = list.findIndex((s) => usable(s) && NOT_PRODUCTION.test(text(s)) && !DEMO.test(text(s)));
  if (safe >= 0)
    return pick(
      safe,
      `its URL or description says sandbox, staging, test or local${list.some((s) => !NOT_PRODUCTION.test(text(s))) ? ', preferred over production' : ''}`,
    );
  const real = list.findIndex((s) => usable(s) && !DEMO.test(text(s)));
  if (real >= 0)
    return pick(
      real,
      real > 0 && list.slice(0, real).every((s) => !usable(s))
        ? 'the first its description does not say not to use'
        : real === 0
          ? 'the first'
          : 'the first that is not a public demo host',
    );
  const first = list.findIndex(usable);
  return pick(first, first === 0 ? 'the first' : 'the first its description does not say not to use');
}
