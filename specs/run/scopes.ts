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

export type RateKey = 'address' | 'identity' | 'credential' | 'endpoint';

export const KEYS: readonly RateKey[] = ['address', 'endpoint', 'identity', 'credential'];

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
  /** A declared limit counts this request (false: `rateLimit.appliesTo: endpoint` and another path). */
  readonly counted: boolean;
  /** The path, base path included, query left out. */
  readonly route: string;
  /** The declared identity its credential verifies as; '' for none (no credential, or one not verified). */
  readonly identity: string;
  /** A digest of that credential (never the credential); '' when `identity` is ''. */
  readonly credential: string;
}

const SEPARATOR = '\t';

/** The scope as one string, the form leases and limited answers travel in (no credential in it). */
export function encodeScope(scope: RequestScope): string {
  return [scope.counted ? '1' : '0', scope.route, scope.identity, scope.credential].join(SEPARATOR);
}

export function decodeScope(text: string): RequestScope {
  const [counted = '1', route = '', identity = '', credential = ''] = text.split(SEPARATOR);
  return { counted: counted === '1', route, identity, credential };
}

/** The counter a request counts against under `key`; requests no declared limit counts share `other`. */
export function counterOf(key: RateKey, scope: RequestScope): string {
  if (!scope.counted) return OTHER;
  switch (key) {
    case 'address':
      return 'address';
    case 'endpoint':
      return `endpoint ${scope.route}`;
    case 'identity':
      return `identity ${scope.identity}`;
    case 'credential':
      return `credential ${scope.credential}`;
  }
}

/** The counter of requests no declared limit counts (another path than `rateLimit.appliesTo: endpoint`'s). */
export const OTHER = 'other';

/**
 * Whether the declared limit governs this counter, so it is paced from the start: every counter but `other`
 * and, under `identity` or `credential`, the one of requests that verify as no identity — a target counts those
 * wherever it puts unverified clients (often a limit on failed attempts), which the declaration does not say.
 */
export function governed(counter: string): boolean {
  return counter !== OTHER && counter !== 'identity ' && counter !== 'credential ';
}

/** How a counter reads in reports: `address`, `endpoint /protected`, `identity admin`, … */
export function counterLabel(counter: string): string {
  if (counter === OTHER) return 'requests no declared limit counts';
  if (counter === 'identity ' || counter === 'credential ')
    return 'requests verified as no declared identity';
  if (counter.startsWith('credential ')) return `one credential (${counter.slice(11, 19)}…)`;
  return counter;
}

/** The finest keys of `keys`: those no other key of the set is finer than. */
export function finest(keys: readonly RateKey[]): RateKey[] {
  return keys.filter((k) => !keys.some((other) => other !== k && covers(k, other)));
}
