/**
 * Which key explains a limited answer (docs/design.md "A polite client"; specs/run/scopes.ts). The keys in
 * force keep each of their counters within the declared limit, so under the right key the suite is never
 * limited. A limited answer therefore says the target counts by a key not in force — one under which the
 * request's counter *had* gone past the declared limit: more requests in some recent span than the declared
 * rate allows over it, plus the few a client may send back to back. Of the keys whose counter had, the finest
 * is added (an `endpoint` limit must not slow the other routes as an `address` one would); if it was not the
 * whole story, the next limited answer adds the next.
 *
 * A key is not added when the traffic refutes it: when its counter had more requests *accepted* over k windows
 * than any limiter of the declared limit accepts there — k + 1 limits, a fixed window's worst case across its
 * boundaries. A lone limited answer where a counter under that key went on being served far past the limit
 * is jitter on a counter in force (a slot that arrived late), not a key.
 *
 * Without a declared limit there is nothing to measure a counter against: the scheduler learns a pace instead.
 */
import type { GrantLog } from './grant-log.ts';
import { backToBackOf } from './pacer.ts';
import {
  counterOf,
  covers,
  finest,
  governed,
  KEYS,
  parsed,
  type RateKey,
  type RequestScope,
  routed,
  sameCredential,
} from './scopes.ts';

export interface LearnedKey {
  readonly key: RateKey;
  /** When the answer came (epoch ms). */
  readonly at: number;
  /** The evidence: this counter had received `requests` in the last `spanMs`, more than the declared rate allows. */
  readonly counter: string;
  readonly requests: number;
  readonly spanMs: number;
  /** Under several declared limits: the one that learned it (its label). */
  readonly entry?: string;
  /**
   * Coarser keys whose counters had gone past the declared rate too, and that the traffic had not refuted: the
   * same answers fit them (a target counting per address limits a run whose requests all went to one route).
   * The finest is added, as it slows the least; the report says these fit too (specs/run/politeness.ts
   * keySummary) until the traffic refutes them (`refuted`) or a later limited answer adds one.
   */
  readonly alsoFits?: readonly { readonly key: RateKey; readonly counter: string }[];
}

interface Declared {
  readonly limit: number;
  readonly windowSeconds: number;
  readonly burst?: number;
  readonly key?: RateKey;
}

/** The spans a counter is checked over: the window, its halves down to an eighth, and the declared burst's. */
function spans(d: Declared): number[] {
  const windowMs = d.windowSeconds * 1000;
  const out = [windowMs, windowMs / 2, windowMs / 4, windowMs / 8];
  if (d.burst !== undefined && d.burst < d.limit) out.push((d.burst * windowMs) / d.limit);
  return out;
}

/**
 * Requests a counter may receive in `spanMs` under the declared limit: its rate over the span, plus the
 * back-to-back allowance — the whole limit where the target takes it at once (specs/run/pacer.ts
 * takesWholeLimit), so over a span within one window, the limit: the limited request was one past it.
 */
export function allowedIn(d: Declared, spanMs: number): number {
  const rate = (d.limit * spanMs) / (d.windowSeconds * 1000);
  const backToBack = backToBackOf(d);
  // (+ 1: the limited request itself is among the requests counted.)
  return backToBack >= d.limit ? Math.max(d.limit, rate) : rate + backToBack + 1;
}

/** The keys a limited answer to `scope` adds to `enforced` (none when the keys in force explain it, or nothing is declared). */
/** A counter in force this full (of the declared limit, over its last window) may be limited by jitter. */
const NEAR_FULL = 0.8;
/** Limited answers this close together (at most) are seen together. */
const TOGETHER_MS = 2000;

/**
 * Whether a counter in force had come near the declared limit in its last window: a lone limited answer on
 * it is then what a little jitter does (a slot that arrived late at the target), and teaches no other key
 * by itself.
 */
export function nearFull(
  declared: Declared,
  key: RateKey,
  counter: string,
  log: GrantLog,
  now: number,
): boolean {
  return log.count(key, counter, declared.windowSeconds * 1000, now) >= NEAR_FULL * declared.limit;
}

/** Spans of k windows the refutation looks at. */
const REFUTING_WINDOWS = [1, 2, 4, 8];

/** Whether `counter` accepted more requests over some k windows than the declared limit ever lets through there. */
function refuted(
  d: Declared,
  key: RateKey,
  counter: string,
  sent: GrantLog,
  limited: GrantLog,
  now: number,
): boolean {
  const windowMs = d.windowSeconds * 1000;
  const backToBack = backToBackOf(d);
  return REFUTING_WINDOWS.some((k) => {
    const accepted =
      sent.count(key, counter, k * windowMs, now) - limited.count(key, counter, k * windowMs, now);
    return accepted > (k + 1) * d.limit + backToBack + 1;
  });
}

/**
 * `jitterSuspect`: the request's own counters in force had come near their limit (nearFull), so its answer
 * alone proves nothing: a key is then added only when limited answers came together from two or more counters
 * in force that it counts as one (two routes, two identities) — what a coarser counter's exhaustion does, and
 * jitter does not.
 *
 * `sentAt`: when the limited request went out. The target counted it at some moment between then and `now`
 * (when its answer was known here), so a counter had gone past the limit if it had in a span ending anywhere in
 * between (GrantLog.maxCount). Ending at `now` alone, a run whose client or target stalled for a moment counts
 * the wrong window: the requests the target counted with it went out earlier, and a route's counter that had
 * reached the limit looks short of it while the address's, with every route's requests, does not.
 */
export function explainLimited(
  declared: Declared | undefined,
  enforced: ReadonlySet<RateKey>,
  log: GrantLog,
  limitedLog: GrantLog,
  scope: RequestScope,
  now: number,
  jitterSuspect = false,
  sentAt?: number,
): LearnedKey[] {
  if (declared === undefined || !scope.counted) return [];
  // Declared per identity or credential, a request that verifies as none is counted wherever the target puts
  // unverified clients — often per address, with a limit of its own (failed attempts): an address counter over
  // the declared rate says nothing then. Its route's counter still does (a target limiting per route).
  const unverified = (declared.key === 'identity' || declared.key === 'credential') && scope.identity === '';
  const over: LearnedKey[] = [];
  for (const key of KEYS) {
    if ([...enforced].some((e) => covers(e, key)) || (unverified && key === 'address')) continue;
    const counter = counterOf(key, scope);
    // A counter no declared limit governs (requests verified as no identity) is no evidence for its key.
    if (!governed(counter)) continue;
    if (jitterSuspect) {
      const inForce = (counters: Readonly<Record<RateKey, string>>) =>
        [...enforced].map((k) => counters[k]).join('\u0000');
      const span = Math.min(TOGETHER_MS, declared.windowSeconds * 1000);
      if (limitedLog.distinct(key, counter, span, now, inForce) < 2) continue;
    }
    for (const spanMs of spans(declared)) {
      const requests =
        sentAt === undefined || sentAt >= now
          ? log.count(key, counter, spanMs, now)
          : log.maxCount(key, counter, spanMs, sentAt, now);
      if (requests > allowedIn(declared, spanMs)) {
        if (!refuted(declared, key, counter, log, limitedLog, now))
          over.push({ key, at: now, counter, requests, spanMs });
        break;
      }
    }
  }
  const keep = finest(over.map((o) => o.key));
  return over
    .filter((o) => keep.includes(o.key))
    .map((o) => {
      const coarser = over.filter((c) => c.key !== o.key && covers(c.key, o.key));
      return coarser.length === 0
        ? o
        : { ...o, alsoFits: coarser.map((c) => ({ key: c.key, counter: c.counter })) };
    });
}

/**
 * `learned` without the coarser keys its answers fit that the traffic has refuted since (`refuted`): a target
 * counting per address limits a run whose requests all went to one route as one counting per route does, but an
 * address served past the declared limit afterwards says the target does not count per address.
 */
export function withoutRefuted(
  declared: Declared,
  learned: LearnedKey,
  log: GrantLog,
  limitedLog: GrantLog,
  now: number,
): LearnedKey {
  const fits = learned.alsoFits;
  if (fits === undefined) return learned;
  const left = fits.filter((f) => !refuted(declared, f.key, f.counter, log, limitedLog, now));
  if (left.length === fits.length) return learned;
  const { alsoFits: _refuted, ...rest } = learned;
  return left.length === 0 ? rest : { ...rest, alsoFits: left };
}

/**
 * Whether a limited answer to a request of `scope` (one the target routes: RequestScope.unrouted unset) says the
 * target counts the requests to no declared route or method too: under a key in force, its counter and that
 * counter's unrouted twin together had gone past the declared rate over some span, where its counter alone had
 * not. Asked only when no key explains the answer (explainLimited): the finer reading first.
 */
export function unroutedExplains(
  declared: Declared | undefined,
  enforced: ReadonlySet<RateKey>,
  log: GrantLog,
  scope: RequestScope,
  now: number,
): boolean {
  if (declared === undefined || !scope.counted) return false;
  const mine = routed(scope);
  const twin: RequestScope = { ...mine, unrouted: true };
  for (const key of enforced) {
    const counter = counterOf(key, mine);
    if (!governed(counter)) continue;
    const alone = (spanMs: number) => log.count(key, counter, spanMs, now);
    const twinCounter = counterOf(key, twin);
    const together = (spanMs: number) => alone(spanMs) + log.count(key, twinCounter, spanMs, now);
    if (pastOnlyTogether(declared, alone, together)) return true;
  }
  return false;
}

/**
 * Whether, over some span, a counter's requests together with others' had gone past the declared rate where
 * its own had not: what says a target counts them as one.
 */
function pastOnlyTogether(
  declared: Declared,
  alone: (spanMs: number) => number,
  together: (spanMs: number) => number,
): boolean {
  return spans(declared).some((spanMs) => {
    const allowed = allowedIn(declared, spanMs);
    return alone(spanMs) <= allowed && together(spanMs) > allowed;
  });
}

/**
 * Whether a limited answer to a request of `scope` says the target counts a credential's spellings as one (it
 * keys the parsed credential, RequestScope.spelling): under `credential` in force, the credential's spellings
 * together had gone past the declared rate over some span, where the request's own counter had not. Asked
 * before any coarser key is tried (the coordinator): the finer reading first.
 */
export function spellingExplains(
  declared: Declared | undefined,
  enforced: ReadonlySet<RateKey>,
  log: GrantLog,
  scope: RequestScope,
  now: number,
): boolean {
  if (declared === undefined || !scope.counted || !enforced.has('credential')) return false;
  const own = counterOf('credential', scope);
  const family = counterOf('credential', parsed(scope));
  return pastOnlyTogether(
    declared,
    (spanMs) => log.count('credential', own, spanMs, now),
    (spanMs) => log.countWhere('credential', (c) => sameCredential(c, family), spanMs, now),
  );
}
