/**
 * What a protected resource looks like, so an answer that was not meant to carry it can be searched for it
 * (seed §5 rule 1, §7 403: a refused request is not processed, so nothing of the resource is handed over).
 * The fingerprint of a 200 body a permitted identity got: its values longer than a few characters, and its
 * member names. Names alone are weak evidence (an error body may well have a `message` too), so an answer
 * carries the resource when it repeats one of the values, or every one of at least two names.
 */
import { memoized } from './memo.ts';

export interface Fingerprint {
  /** String values (and numbers written out) of at least MIN_VALUE characters, as they appear in JSON text. */
  readonly values: readonly string[];
  /** Member names of at least MIN_NAME characters, other than the usual error members. */
  readonly names: readonly string[];
}

/** Shorter values ("admin", "true", "2") appear in error bodies by chance. */
export const MIN_VALUE = 8;
export const MIN_NAME = 4;
/** Longest list kept: a large resource needs no more to be recognised. */
const MAX_TOKENS = 64;

/**
 * Members an error body has whatever it refuses: RFC 9457 §3.1 (problem details), RFC 6749 §5.2 (OAuth
 * errors) and the common `{ "message": … }` / `{ "error": … }` shapes. A resource's member of one of these
 * names says nothing.
 */
const ERROR_MEMBERS = new Set([
  'type',
  'title',
  'status',
  'detail',
  'instance',
  'error',
  'errors',
  'error_description',
  'error_uri',
  'message',
  'code',
  'statusCode',
  'timestamp',
  'path',
]);

/** The fingerprint of a 200 body; undefined when it has nothing recognisable (empty, or only short values). */
export function fingerprintOf(body: string): Fingerprint | undefined {
  const values = new Set<string>();
  const names = new Set<string>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    // Not JSON: its longer lines stand for it.
    for (const line of body.split(/\r?\n/)) {
      const text = line.trim();
      if (text.length >= 2 * MIN_VALUE) values.add(text);
    }
    return finish(values, names);
  }
  walk(parsed, values, names);
  return finish(values, names);
}

function finish(values: Set<string>, names: Set<string>): Fingerprint | undefined {
  if (values.size === 0 && names.size < 2) return undefined;
  return { values: [...values].slice(0, MAX_TOKENS), names: [...names].slice(0, MAX_TOKENS) };
}

/** Depth-first, iteratively: a resource nested deeply must not overflow the stack. */
function walk(root: unknown, values: Set<string>, names: Set<string>): void {
  const stack: unknown[] = [root];
  while (stack.length > 0 && values.size + names.size < 2 * MAX_TOKENS) {
    const value = stack.pop();
    if (typeof value === 'string') {
      // As it appears inside JSON text (quotes and backslashes escaped), without the quotes.
      if (value.length >= MIN_VALUE) values.add(JSON.stringify(value).slice(1, -1));
    } else if (typeof value === 'number') {
      const text = String(value);
      if (text.length >= MIN_VALUE) values.add(text);
    } else if (Array.isArray(value)) {
      stack.push(...value);
    } else if (value !== null && typeof value === 'object') {
      for (const [name, member] of Object.entries(value)) {
        if (name.length >= MIN_NAME && !ERROR_MEMBERS.has(name)) names.add(name);
        stack.push(member);
      }
    }
  }
}

/**
 * What of the resource `body` carries, in words for the evidence ("the value …", "every member name …"), or
 * undefined when it carries nothing of it. A value or name that the request itself carries (`carried`, from
 * requestCarried: its path, query, method, field values) is no evidence: an answer that echoes the request —
 * a 404 naming the route it did not find — repeats the request, not the resource.
 */
export function resourceIn(body: string, fingerprint: Fingerprint, carried = ''): string | undefined {
  if (body.length === 0) return undefined;
  const hits = hitsIn(body, fingerprint);
  const value = hits.values.find((v) => !carried.includes(v));
  if (value !== undefined)
    return `the resource's value "${value.length > 48 ? `${value.slice(0, 48)}…` : value}"`;
  // Every name the request does not carry is in the body: none of those the body lacks is left.
  if (hits.missingNames.some((name) => !carried.includes(name))) return undefined;
  const names = fingerprint.names.filter((name) => !carried.includes(name));
  return names.length >= 2
    ? `every member name of the resource (${names.slice(0, 6).join(', ')})`
    : undefined;
}

/** What of a fingerprint one body holds: its values found in the body (in order), its names the body lacks. */
interface BodyHits {
  readonly values: readonly string[];
  readonly missingNames: readonly string[];
}

/** Distinct bodies remembered per fingerprint: a run's thousands of refusals carry a handful. */
const MAX_BODIES = 256;
const hitsByFingerprint = new WeakMap<Fingerprint, Map<string, BodyHits>>();

/** The body's search for the fingerprint, done once per body (the request's own values are left out after). */
function hitsIn(body: string, fingerprint: Fingerprint): BodyHits {
  let perBody = hitsByFingerprint.get(fingerprint);
  if (perBody === undefined) {
    perBody = new Map();
    hitsByFingerprint.set(fingerprint, perBody);
  }
  let hits = perBody.get(body);
  if (hits === undefined) {
    if (perBody.size >= MAX_BODIES) perBody.clear();
    hits = {
      values: fingerprint.values.filter((v) => body.includes(v)),
      missingNames: fingerprint.names.filter((name) => !body.includes(`"${name}"`)),
    };
    perBody.set(body, hits);
  }
  return hits;
}

/** What a request carries that an answer may echo: its method, target (as sent and percent-decoded), field values. */
export function requestCarried(request: {
  readonly method: string;
  readonly url: string;
  readonly headerLines: readonly (readonly [string, string])[];
}): string {
  return [request.method, targetCarried(request.url), ...request.headerLines.map(([, value]) => value)].join(
    '\n',
  );
}

/** The target as sent and percent-decoded, one line each; remembered, since a run sends to a few URLs. */
const targetCarried = memoized((href: string): string => {
  const url = new URL(href);
  const target = `${url.pathname}${url.search}`;
  let decoded = target;
  try {
    decoded = decodeURIComponent(target.replace(/\+/g, ' '));
  } catch {
    // A lone "%" stays as sent.
  }
  return `${target}\n${decoded}`;
});
