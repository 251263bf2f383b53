/**
 * What a rate limit may be counted per — its key — and which counter each request falls in under each key
 * (docs/design.md "A polite client"). A worker describes every request once (specs/run/buckets.ts: its path,
 * the declared identity its credential verifies as, a digest of that credential, and whether a declared limit
 * counts it at all); the run's scheduler (specs/run/coordinator.ts) keeps, for every key it holds possible,
 * one counter per value and paces each.
 *
 * The keys form a lattice, coarse to fine: `address` (every request of the client address, one counter)
 * holds `endpoint` (one per path) and `identity` (one per verified identity; requests that verify as none
 * share one), and `identity` holds `credential` (one per credential value). Pacing a coarser key is always
 * safe for a finer one (its counters see a subset of the same requests); the reverse is not.
 */

export type { RateLimitKey as RateKey } from '../profile/rate-policy.ts';

import type { RateLimitKey as RateKey } from '../profile/rate-policy.ts';

export const KEYS: readonly RateKey[] = ['address', 'endpoint', 'identity', 'credential'];

/**
 * The keys a profile that declares a limit but not its key starts from (#38, sixth pass): per credential, the
 * finest — each credential value its own counter, the requests without one per address. A target that counts
 * per credential (a gateway's per-key quota) then never slows the run; one that counts per identity, route or
 * address says so with a limited answer, which adds that key (specs/run/key-model.ts) — one event, waited out.
 * Started per identity, the credentials on the public route that verify as no identity shared the per-address
 * counter of the requests without one: a minimal profile against a limit per credential took 143.1 s (20 per
 * 10 s) and 63.2 s (60 per 10 s), per credential 70.6 s and 31.7 s; DRF-like 141.3 s, per credential 69.3 s
 * after one limiting event taught `identity` (docs/performance.md). (Started per route and per identity
 * together, before the fourth pass, every fuzz case of a route shared one counter: 2.7× the least time.)
 */
export const UNDECLARED_KEYS: readonly RateKey[] = ['credential'];

/** The keys directly finer than each: pacing `k` also paces every key below it. */
const FINER: Readonly<Record<RateKey, readonly RateKey[]>> = {
  address: ['endpoint', 'identity', 'credential'],
  identity: ['credential'],
  endpoint: [],
  credential: [],
};

/** Whether pacing `coarse` keeps every counter of `fine` within the same limit. */
export function covers(coarse: RateKey, fine: RateKey): boolean {
  return coarse === fine || FINER[coarse].includes(fine);
}

/** One request as the scheduler sees it. */
export interface RequestScope {
  /** A declared limit counts this request (false: no entry of `rateLimit` applies to it). */
  readonly counted: boolean;
  /** Which entries of a `rateLimit` list count it (their indexes); undefined: every entry, when `counted`. */
  readonly entries?: readonly number[];
  /** The route template (`/api/users/{id}`) where the profile names one, else the path; base path included, query left out. */
  readonly route: string;
  /** The declared identity its credential verifies as; '' for none (no credential, or one not verified). */
  readonly identity: string;
  /**
   * A digest of the credential (never the credential), whether or not it is a declared identity's; '' when the
   * request carries none (or when no key in play needs it: specs/run/buckets.ts).
   */
  readonly credential: string;
  /**
   * The route is the one the profile declares public (`endpoints.public`): there a credential that verifies as
   * no identity is served as no credential at all, and counted so (counterOf).
   */
  readonly publicRoute?: boolean;
  /**
   * The request goes to no route the profile declares, or with a method the route does not take, or is an
   * `OPTIONS` (an unknown path's 404, a 405, a preflight): many targets answer it before their limiter — the
   * mock does, @fastify/rate-limit hooks its routes only — so it counts apart (counterOf) until a limited
   * answer says the target counts it too (specs/run/coordinator.ts). nginx `limit_req` and an
   * express-rate-limit mounted first count it with the rest.
   */
  readonly unrouted?: boolean;
  /**
   * The request carries no credential and goes to a declared route that needs one (any but the public route's
   * GET and HEAD), and a limit that counts it is kept per identity. A limiter keyed per identity runs after
   * authentication, which usually refuses such a request before it (DRF's `APIView.initial`: authentication,
   * permissions, then throttles; a passport strategy's 401), so under `identity` it counts apart (counterOf)
   * until the target is seen counting it (specs/run/coordinator.ts). Under every other key it counts as before.
   */
  readonly unidentified?: boolean;
  /**
   * Under `credential`: a digest of the field as sent (its surrounding whitespace stripped, RFC 9110 §5.5),
   * beside `credential`'s, which reads it as a parser does (the scheme's case and the spaces after it do not
   * matter: §11.1). A gateway that keys the header as sent (nginx `$http_authorization`, an express-rate-limit
   * `keyGenerator` returning the field) counts `bearer X` apart from `Bearer X`; one that keys the parsed
   * credential counts them together. The run counts a credential's other spellings apart from the first it
   * sends (specs/run/coordinator.ts) until a limited answer says the target counts them together.
   */
  readonly spelling?: string;
}

const SEPARATOR = '\t';
/** Between the credential's digests as parsed and as sent (base64url has no `+`). */
const SPELT = '+';

/** The scope as one string, the form leases and limited answers travel in (no credential in it). */
export function encodeScope(scope: RequestScope): string {
  const counted = !scope.counted ? '0' : scope.entries === undefined ? '1' : `e${scope.entries.join(',')}`;
  const credential =
    scope.spelling === undefined ? scope.credential : `${scope.credential}${SPELT}${scope.spelling}`;
  const fields = [counted, scope.route, scope.identity, credential];
  const marks = `${scope.unidentified === true ? 'n' : ''}${scope.publicRoute === true ? 'p' : ''}${scope.unrouted === true ? 'u' : ''}`;
  return (marks === '' ? fields : [...fields, marks]).join(SEPARATOR);
}

export function decodeScope(text: string): RequestScope {
  const [counted = '1', route = '', identity = '', credentialField = '', marks = ''] = text.split(SEPARATOR);
  const [credential = '', spelling] = credentialField.split(SPELT);
  const where = {
    route,
    identity,
    credential,
    ...(spelling === undefined ? {} : { spelling }),
    ...(marks.includes('p') ? { publicRoute: true } : {}),
    ...(marks.includes('u') ? { unrouted: true } : {}),
    ...(marks.includes('n') ? { unidentified: true } : {}),
  };
  if (counted.startsWith('e')) {
    const entries = counted.length === 1 ? [] : counted.slice(1).split(',').map(Number);
    return { counted: entries.length > 0, entries, ...where };
  }
  return { counted: counted === '1', ...where };
}

/**
 * The counter a request counts against under `key`; requests no declared limit counts share `other`. Exactly
 * as fine as the key: under `identity` a credential that is no declared identity's is an identity of its own
 * (`identity ~<digest>`), under `credential` every credential value its own counter; requests without a
 * credential are counted per address (`identity ` / `credential `), as targets count anonymous clients.
 * On the public route a credential that verifies as no identity is served as none (the route needs none), and
 * a limit per identity counts it as it counts anonymous clients, per address: Django REST framework's
 * `UserRateThrottle` keys an unauthenticated request by its address (`get_ident`), as does an express-rate-limit
 * `keyGenerator` of the form `req.user?.id ?? req.ip`, and the mock's per-identity groups. Under `credential` the
 * value is its own counter still: a gateway counts the header as sent.
 * A request to no declared route or method (RequestScope.unrouted) counts in a counter of its own beside its
 * counter under the key (`unrouted credential `), paced alike, until the run learns the target counts it too.
 */
export function counterOf(key: RateKey, scope: RequestScope): string {
  if (!scope.counted) return OTHER;
  const counter = routedCounterOf(key, scope);
  if (scope.unrouted === true) return `${UNROUTED}${counter}`;
  return key === 'identity' && scope.unidentified === true ? `${UNIDENTIFIED}${counter}` : counter;
}

/** The mark of a counter of requests without a credential to a route that needs one, under `identity`. */
const UNIDENTIFIED = 'unidentified ';

/**
 * The requests counted apart until the target is seen counting them (RequestScope.unrouted, .unidentified):
 * each a guess that the target answers them before its limit.
 */
export type ApartMark = 'unrouted' | 'unidentified';

/** The scope as a limit that counts the requests of `mark` sees it: with the rest. */
export function withTheRest(scope: RequestScope, mark: ApartMark): RequestScope {
  if (scope[mark] !== true) return scope;
  const { [mark]: _, ...rest } = scope;
  return rest;
}

/** The mark of a counter of requests the target may answer before its limit (RequestScope.unrouted). */
const UNROUTED = 'unrouted ';

/** The scope as a target that counts every request sees it: its unrouted requests with the rest. */
export function routed(scope: RequestScope): RequestScope {
  return withTheRest(scope, 'unrouted');
}

/**
 * Which requests counted apart an encoded scope is of, without decoding it (a worker asks of every answer that
 * states the requests left): encodeScope writes the marks last, as their own field — `n`, `p`, `u` in that
 * order; `n` never goes with `u` (an unidentified request is routed), but may with `p` (a write to the public
 * route's path).
 */
export function apartMarkOf(text: string): ApartMark | undefined {
  if (isUnroutedScope(text)) return 'unrouted';
  return text.endsWith(`${SEPARATOR}n`) || text.endsWith(`${SEPARATOR}np`) ? 'unidentified' : undefined;
}

/** Whether an encoded scope is an unrouted request's, without decoding it. */
export function isUnroutedScope(text: string): boolean {
  return text.endsWith(`${SEPARATOR}u`) || text.endsWith(`${SEPARATOR}pu`);
}

/** A counter without its unrouted mark, and whether it had one. */
function unmarked(raw: string): {
  readonly unrouted: boolean;
  readonly unidentified: boolean;
  readonly bare: string;
} {
  const unrouted = raw.startsWith(UNROUTED);
  const unidentified = raw.startsWith(UNIDENTIFIED);
  const mark = unrouted ? UNROUTED : unidentified ? UNIDENTIFIED : '';
  return { unrouted, unidentified, bare: raw.slice(mark.length) };
}

/** The key a counter counts under (`address`, …), its marks left out. */
export function keyOfCounter(raw: string): RateKey {
  return unmarked(raw).bare.split(' ')[0] as RateKey;
}

/**
 * Whether a key's counters are shared by the whole run — every request of the client, or every request of a
 * route, the rate-limit rules' burst included — so that the rules need the target to themselves
 * (RunCoordinator.exclusive); per identity or credential the burst's throw-away identity has counters of its own.
 */
export function sharedByTheRun(key: RateKey): boolean {
  return key === 'address' || key === 'endpoint';
}

function routedCounterOf(key: RateKey, scope: RequestScope): string {
  switch (key) {
    case 'address':
      return 'address';
    case 'endpoint':
      return `endpoint ${scope.route}`;
    case 'identity':
      return scope.identity === '' && scope.credential !== '' && scope.publicRoute !== true
        ? `identity ~${scope.credential}`
        : `identity ${scope.identity}`;
    case 'credential':
      return scope.spelling === undefined
        ? `credential ${scope.credential}`
        : `credential ${scope.credential}${OTHER_SPELLING}${scope.spelling}`;
  }
}

/** In a counter under `credential`: the spelling of a credential counted apart from its first (RequestScope.spelling). */
const OTHER_SPELLING = '~';

/** The scope as a target that keys the parsed credential sees it: every spelling of a credential one. */
export function parsed(scope: RequestScope): RequestScope {
  if (scope.spelling === undefined) return scope;
  const { spelling: _, ...rest } = scope;
  return rest;
}

/**
 * Whether `counter` is `family` (a counter under `credential`) or one of its other spellings' counters: what a
 * target that keys the parsed credential counts as one.
 */
export function sameCredential(counter: string, family: string): boolean {
  return counter === family || counter.startsWith(`${family}${OTHER_SPELLING}`);
}

/** The counter of requests no declared limit counts (another path than `rateLimit.appliesTo: endpoint`'s). */
export const OTHER = 'other';

/**
 * Whether a declared limit governs this counter, so it is paced from the start: every counter but `other`
 * (requests no entry counts). `raw` is the counter without its entry's mark (specs/run/coordinator.ts).
 */
export function governed(counter: string): boolean {
  return rawCounter(counter) !== OTHER;
}

/** A counter of entry `index` of a `rateLimit` list: `#2 identity admin`; the first entry's go unmarked. */
export function entryCounter(index: number, counter: string): string {
  return index === 0 ? counter : `#${index + 1} ${counter}`;
}

/** The counter without its entry's mark, and the entry's index. */
export function splitCounter(counter: string): { entry: number; raw: string } {
  const m = /^#(\d+) (.*)$/s.exec(counter);
  return m === null ? { entry: 0, raw: counter } : { entry: Number(m[1]) - 1, raw: m[2] ?? '' };
}

const rawCounter = (counter: string): string => splitCounter(counter).raw;

/** How a counter reads in reports: `address`, `endpoint /protected`, `identity admin`, … */
export function counterLabel(counter: string): string {
  const { entry, raw: marked } = splitCounter(counter);
  const { unrouted, unidentified, bare: raw } = unmarked(marked);
  const mark = `${entry === 0 ? '' : ` [limit ${entry + 1}]`}${unrouted ? ', to no declared route or method' : ''}`;
  if (raw === OTHER) return 'requests no declared limit counts';
  if (raw === 'credential ') return `requests without a credential (per address)${mark}`;
  if (unidentified) return `requests without a credential to a route that needs one (per address)${mark}`;
  if (raw === 'identity ') return `requests verified as no identity (per address)${mark}`;
  if (raw.startsWith('identity ~')) return `one undeclared identity (${raw.slice(10, 18)}…)${mark}`;
  if (raw.startsWith('credential ')) {
    const spelt = raw.includes(OTHER_SPELLING) ? ', spelt another way' : '';
    return `one credential (${raw.slice(11, 19)}…)${spelt}${mark}`;
  }
  return `${raw}${mark}`;
}

/** The finest keys of `keys`: those no other key of the set is finer than. */
export function finest(keys: readonly RateKey[]): RateKey[] {
  return keys.filter((k) => !keys.some((other) => other !== k && covers(k, other)));
}
