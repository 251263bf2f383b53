/**
 * The request-target a check meant, as octets on the wire (RFC 9112 §3.2: origin-form = absolute-path
 * [ "?" query ]). Clients normalise what they are given: the WHATWG URL parser (Node's `new URL`, undici,
 * browsers) removes dot segments (`/./admin`, `/x/../admin`), turns `\` into `/`, drops a `#fragment` and
 * percent-encodes some characters; curl removes dot segments too. A check that sends a spelling of a path
 * (specs/conformance/path-spellings.spec.ts) must put that spelling on the wire, not the path it normalises to.
 */

/** `scheme://authority` at the start of an absolute URL. */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\\]*/i;

/** Octets Node's http client writes into a request line unchanged (it refuses the rest: ERR_UNESCAPED_CHARACTERS). */
const PRINTABLE = /^[\x21-\x7e]*$/;

/**
 * Everything after the authority of `url`, exactly as written (`/` when nothing follows it, `/?q` for a bare
 * query). No dot segment removed, no fragment dropped, nothing encoded.
 */
export function requestTargetAsWritten(url: string): string {
  const origin = ORIGIN.exec(url);
  if (!origin) throw new TypeError(`not an absolute URL: ${url}`);
  const rest = url.slice(origin[0].length);
  if (rest === '') return '/';
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** The target the WHATWG URL parser makes of `url` (what Node's http client would send for it). */
export function normalisedTarget(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/**
 * The target a request for `url` goes out with: as written when every octet is printable ASCII (so a
 * spelling reaches the target as spelled), else the normalised one, whose percent-encoding makes spaces and
 * non-ASCII characters sendable — as the suite sent every request before spellings were checked.
 */
export function wireTarget(url: string): string {
  const written = requestTargetAsWritten(url);
  return PRINTABLE.test(written) ? written : normalisedTarget(url);
}

/** Whether a URL-parsing client (curl, fetch, `new URL`) would send another target than `wireTarget(url)`. */
export function normalisedAway(url: string): boolean {
  return wireTarget(url) !== normalisedTarget(url);
}
