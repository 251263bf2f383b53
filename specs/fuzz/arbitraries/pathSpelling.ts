import fc from 'fast-check';

/**
 * Spellings of a path that may reach the resource behind it, or another, or none — each a way servers,
 * proxies and routers have been seen to disagree about which resource a request-target names.
 *
 * RFC 9112 §3.2 (origin-form = absolute-path [ "?" query ]), RFC 3986 §3.3:
 *
 *   path-abempty = *( "/" segment )
 *   segment      = *pchar
 *   pchar        = unreserved / pct-encoded / sub-delims / ":" / "@"
 *
 * RFC 3986 §6.2.2 makes some spellings equivalent to the path (percent-encoded unreserved characters, the
 * case of percent-encodings, dot segments, §5.2.4); RFC 9110 §4.2.3 leaves the rest to the origin server
 * (a trailing slash, letter case, a ";param", a suffix). A "#" is not part of a request-target at all: sent
 * raw, it is whatever the server makes of it. The spellings go on the wire as written
 * (specs/lib/request-target.ts): an HTTP library would normalise several of them away.
 *
 * A new spelling is one more entry of SPELLINGS. Each entry's arbitrary shrinks towards its `example`.
 */

/** One spelling of a path: the generator case it comes from and the path as spelled. */
export interface PathSpelling {
  /** The entry of SPELLINGS, for the evidence: `trailing slash`, `dot segment`, … */
  readonly kind: string;
  /** The path as spelled, starting with '/'; sent as written. */
  readonly path: string;
}

interface Spelling {
  /** The simplest spelling of the kind: the check sends it on every run. */
  readonly example: (path: string) => string;
  /** Its spellings, shrinking towards `example`. */
  readonly arbitrary: (path: string) => fc.Arbitrary<string>;
}

/** RFC 3986 §2.3: unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~" — what percent-encoding must not change. */
const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** `/a/b/c` → [`/a/b`, `c`]; `/admin` → [``, `admin`]. */
function lastSegment(path: string): [string, string] {
  const slash = path.lastIndexOf('/');
  return [path.slice(0, slash), path.slice(slash + 1)];
}

/** Positions of the characters percent-encoding may spell otherwise (not the slashes). */
function encodable(path: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < path.length; i++) if (UNRESERVED.test(path.charAt(i))) out.push(i);
  return out;
}

function percentEncoded(path: string, index: number, lowerHex: boolean): string {
  const hex = path.charCodeAt(index).toString(16).padStart(2, '0');
  return `${path.slice(0, index)}%${lowerHex ? hex : hex.toUpperCase()}${path.slice(index + 1)}`;
}

/** Every letter upper-cased when the mixed case came out as the path itself. */
const otherCase = (path: string, spelled: string): string =>
  spelled === path ? path.toUpperCase() : spelled;

/** `from(path)` as a constant-list arbitrary: shrinks towards the first entry, the example. */
function oneOfForms(from: (path: string) => readonly string[]): Spelling {
  return {
    example: (path) => from(path)[0] ?? path,
    arbitrary: (path) => fc.constantFrom(...from(path)),
  };
}

export const SPELLINGS: Readonly<Record<string, Spelling>> = {
  'trailing slash': oneOfForms((p) => [`${p}/`]),
  // RFC 9110 §4.2.3: the path is case-sensitive unless the server says otherwise.
  'letter case': {
    example: (p) => p.toUpperCase(),
    arbitrary: (p) => fc.mixedCase(fc.constant(p)).map((s) => otherCase(p, s)),
  },
  // RFC 3986 §6.2.2.2: %61 is "a"; §6.2.2.1: %6a and %6A are the same octet.
  'percent-encoded character': {
    example: (p) => {
      const at = encodable(p)[0];
      return at === undefined ? `${p}%2F` : percentEncoded(p, at, false);
    },
    arbitrary: (p) => {
      const positions = encodable(p);
      if (positions.length === 0) return fc.constant(`${p}%2F`);
      return fc
        .tuple(fc.nat({ max: positions.length - 1 }), fc.boolean())
        .map(([i, lower]) => percentEncoded(p, positions[i] ?? 0, lower));
    },
  },
  'encoded slash': oneOfForms((p) => [`${p}%2F`, `${p}%2f`, `/%2F${p.slice(1)}`]),
  // RFC 3986 §5.2.4: remove_dot_segments makes each of these the path itself.
  'dot segment': oneOfForms((p) => {
    const [dir, last] = lastSegment(p);
    return [`/.${p}`, `/gatecheck/..${p}`, `${p}/.`, `${p}/./`, `${dir}/./${last}`, `${p}/gatecheck/..`];
  }),
  'encoded dot segment': oneOfForms((p) => [
    `/%2e${p}`,
    `/gatecheck/%2e%2e${p}`,
    `/gatecheck/.%2e${p}`,
    `/gatecheck/%2E%2E${p}`,
    `${p}/%2e`,
  ]),
  'doubled slash': oneOfForms((p) => {
    const [dir, last] = lastSegment(p);
    return [`/${p}`, `${p}//`, `${dir}//${last}`];
  }),
  // RFC 3986 §3.3: ";" is a sub-delim a segment may carry (path parameters, e.g. ;jsessionid=).
  'path parameter': oneOfForms((p) => {
    const [dir, last] = lastSegment(p);
    const inner = dir === '' ? [] : [`${dir};gatecheck/${last}`];
    return [`${p};gatecheck`, `${p};`, `${p};jsessionid=gatecheck`, ...inner];
  }),
  'query trick': oneOfForms((p) => [
    `${p}?`,
    `${p}?gatecheck=1`,
    `${p}%3F`,
    `${p}%3Fgatecheck=1`,
    `${p}?/../gatecheck`,
  ]),
  // RFC 9112 §3.2: a fragment is no part of a request-target; clients strip it, so only a raw one tests this.
  'fragment trick': oneOfForms((p) => [`${p}#gatecheck`, `${p}#`, `${p}%23`, `${p}%23gatecheck`]),
  suffix: oneOfForms((p) => [
    `${p}.json`,
    `${p}.xml`,
    `${p}.html`,
    `${p}.`,
    `${p}~`,
    `${p}%20`,
    `${p}%09`,
    `${p}%00`,
  ]),
  // Windows paths and some proxies take "\" for "/".
  backslash: oneOfForms((p) => [`${p}\\`, `/\\${p.slice(1)}`]),
};

export const SPELLING_KINDS: readonly string[] = Object.keys(SPELLINGS);

/** The example of every kind, in SPELLINGS order: what a check sends on every run. */
export function pathSpellingExamples(path: string): PathSpelling[] {
  return Object.entries(SPELLINGS).map(([kind, s]) => ({ kind, path: s.example(path) }));
}

/** One spelling of `path`, of any kind but `except` (a kind over itself could undo itself: /ADMIN → /admin). */
function singleSpelling(path: string, except?: string): fc.Arbitrary<PathSpelling> {
  return fc.oneof(
    ...Object.entries(SPELLINGS)
      .filter(([kind]) => kind !== except)
      .map(([kind, s]) => s.arbitrary(path).map((spelled) => ({ kind, path: spelled }))),
  );
}

/**
 * A spelling of `path`: one kind (shrinking towards its example, then towards the first kind), or two
 * applied one over the other (`/ADMIN/`, `/./admin;gatecheck`), which shrinks to the first alone.
 */
export function pathSpelling(path: string): fc.Arbitrary<PathSpelling> {
  const single = singleSpelling(path);
  const twice = single.chain((first) =>
    singleSpelling(first.path, first.kind).map((second) => ({
      kind: `${first.kind} + ${second.kind}`,
      path: second.path,
    })),
  );
  return fc.oneof({ arbitrary: single, weight: 3 }, { arbitrary: twice, weight: 1 });
}
