/**
 * The run's one request scheduler (docs/design.md "A polite client"): every request of the run — conformance
 * checks, fuzz plans, JWT attacks, in every Playwright worker — asks it for a slot first. It lives in the
 * runner process (global setup hosts it: specs/run/coordinator-server.ts) and keeps, per target:
 *  - the key: what the target counts its limit per (specs/run/scopes.ts). A declared `rateLimit.key` is taken
 *    at its word until the traffic contradicts it; an undeclared one starts per credential (each credential
 *    value its own counter, the requests without one per address: UNDECLARED_KEYS): the reading that slows
 *    none of the many credentials a run sends for a limit that counts each alone. A limited
 *    answer that the keys in force cannot explain — its counter under another key had gone past the declared
 *    rate — adds that key (the finest such), and the politeness section says so (specs/run/key-model.ts);
 *  - what the target counts: a request to no declared route or method (an unknown path's 404, a 405, OPTIONS)
 *    is counted apart from the rest of its counter (specs/run/scopes.ts `unrouted`), since many targets answer
 *    it before their limiter, until a limited answer says this target counts it too;
 *  - the pace: one GCRA pacer (specs/run/pacer.ts) per counter of every key in force, at the declared limit's
 *    safe pace; a request takes a slot all of its counters allow. Counters no declared limit governs go
 *    unpaced until limited, then learn a pace: halved per limiting *event* (the answers to requests in flight
 *    together are one), raised additively after each quiet window, never above the rate that was limited; a
 *    governed counter never goes below its declared pace (a limited answer there is waited out and reported);
 *  - the pause: a limited answer (429, or a 403 ban) pauses the request's counters until its Retry-After (or
 *    RateLimit reset), else for the declared window, else for a wait learned from when answers resumed
 *    (growing by a second per event that came too soon — never a doubling back-off);
 *  - the budget: `budget.maxRequests` requests and `budget.maxSeconds` of wall time for the whole run;
 *  - exclusive use: the rate-limit rules provoke the limit on purpose; where a counter in force is shared by
 *    the whole run (per address or per endpoint) they get the target to themselves, and the run waits out
 *    their window before it goes on;
 *  - the cost of politeness for the report: requests, limited answers met, time spent waiting, and the pace
 *    in force per counter (specs/run/politeness.ts).
 * Pure logic with an injectable clock; the transport is elsewhere (coordinator-server.ts, scheduler.ts).
 */
import { GrantLog } from './grant-log.ts';
import {
  explainLimited,
  type LearnedKey,
  nearFull,
  spellingExplains,
  unroutedExplains,
  withoutRefuted,
} from './key-model.ts';
import type { LimitSignal } from './limited-answer.ts';
import { PACE_MARGIN, type Pace, Pacer, paceForDeclared, takesWholeLimit } from './pacer.ts';
import { type CounterPace, type OverDeclared, type Politeness, politenessOf } from './politeness.ts';
import {
  type ApartMark,
  counterLabel,
  counterOf,
  covers,
  decodeScope,
  entryCounter,
  governed,
  KEYS,
  keyOfCounter,
  OTHER,
  parsed,
  type RateKey,
  type RequestScope,
  sharedByTheRun,
  splitCounter,
  UNDECLARED_KEYS,
  withTheRest,
} from './scopes.ts';

export type { Politeness } from './politeness.ts';
export type { RateKey } from './scopes.ts';

/** One declared limit as the coordinator takes it (which requests it counts, the worker's scope says). */
export interface DeclaredLimit {
  readonly limit: number;
  readonly windowSeconds: number;
  readonly burst?: number;
  /** Undefined: the profile does not say; the scheduler starts from `credential` and learns (UNDECLARED_KEYS). */
  readonly key?: RateKey;
  /** The limit counts only the requests to one endpoint (profile `rateLimit.appliesTo`). */
  readonly onlyEndpoint?: boolean;
  /** How reports name it (specs/profile/rate-policy.ts `RateEntry.label`). */
  readonly label?: string;
}

/** A target's limits as a worker registers them from its profile (specs/run/scheduler.ts policyOf). */
export interface TargetPolicy {
  /** One declared limit: the same as `limits: [declared]`. */
  readonly declared?: DeclaredLimit;
  /** Several declared limits (a `rateLimit` list): each request is paced by every one its scope names. */
  readonly limits?: readonly DeclaredLimit[];
  /** The target bans (403) after limiting; `seconds` when the profile says how long. */
  readonly ban?: { readonly seconds?: number };
  /** The limiter answers 503, not 429 (profile `rateLimit.status`). */
  readonly limiterStatus?: 503;
  readonly maxRequests: number;
  readonly maxSeconds: number;
}

export type LeaseAnswer =
  /**
   * Send times (epoch ms), one a request; `lastLimitedAt` lets the worker recognise a ban; `unpaced`: no pace
   * applies to the scope, so the worker may ask for its next lease before it runs out (specs/run/scheduler.ts).
   */
  | { readonly at: readonly number[]; readonly lastLimitedAt: number; readonly unpaced?: true }
  /** Nothing may go now: ask again then. */
  | { readonly retryAt: number }
  /** The budget cannot afford another request. */
  | { readonly exhausted: string };

export interface LimitedAnswer {
  /** When sending may resume (epoch ms). */
  readonly resumeAt: number;
  /** False when resuming lies past the run's deadline: the request cannot be re-sent in budget. */
  readonly affordable: boolean;
}

/**
 * Unpaced slots handed to a worker at once. A pause that starts meanwhile lets at most this many more of its
 * requests out, and the few left of its previous lease, since a worker asks for the next unpaced lease before
 * its slots run out (their limited answers are waited out like any other).
 */
const UNPACED_LEASE = 16;
/** Slots further ahead than this are not handed out, so a pause stops the run within this long. */
export const LEASE_HORIZON_MS = 250;
/** How long exclusive use waits for requests already handed out to land before the holder starts. */
const DRAIN_MS = LEASE_HORIZON_MS + 250;
/** Added to every requested wait: clocks and windows are not exact. */
const WAIT_MARGIN_MS = 100;
/** Limited answers closer than this to a counter's last event are that event, seen by another request. */
const SAME_EVENT_MS = 50;
/** Without a declared window: the first wait a limited answer naming none gets, and each step up. */
const LEARNED_WAIT_STEP_MS = 1000;
const MAX_LEARNED_WAIT_MS = 60_000;
/**
 * The start of the report's note once the target is seen counting the requests it was expected to answer before
 * its limit; the note goes on to say what showed it (a limited answer, or the rate-limit fields of an answer).
 */
export const UNROUTED_COUNTED =
  'the target counts requests to no declared route or method (an unknown path, a method the route does not take, OPTIONS) against its limit';
const UNROUTED_LIMITED = `${UNROUTED_COUNTED}: a limited answer said so, and from then on they were paced with the rest`;
const UNROUTED_ANNOUNCED = `${UNROUTED_COUNTED}: its answer to one stated the requests left (a rate-limit field), and from then on they were paced with the rest`;
/** The note once a limit per identity is seen counting requests without a credential to a route that needs one. */
export const UNIDENTIFIED_COUNTED =
  'the target counts requests without a credential to a route that needs one against its limit per identity';
const UNIDENTIFIED_LIMITED = `${UNIDENTIFIED_COUNTED}: a limited answer said so, and from then on they were paced with the rest`;
const UNIDENTIFIED_ANNOUNCED = `${UNIDENTIFIED_COUNTED}: its answer to one stated the requests left (a rate-limit field), and from then on they were paced with the rest`;
/**
 * The report's note once the target is seen counting a credential's spellings as one (RequestScope.spelling).
 */
export const SPELLINGS_COUNTED =
  "the target counts a credential's spellings (the scheme's case, the spaces after it) as one credential: a limited answer said so, and from then on they were paced together";
/** A learned pace never goes below this (requests/s). */
const MIN_LEARNED_PACE = 0.5;
/** Per limiting event, a learned pace is multiplied by this; after each quiet window it gains this share of its ceiling. */
const DECREASE = 0.7;
const INCREASE_SHARE = 0.1;
/**
 * A limited answer after the target let fewer than this share of the declared limit through in the window, under
 * every key, says it keeps a lower limit; nearer the limit it may be jitter on the way (a window's edge, requests
 * bunched). A limit kept within a fifth of the declared one moves the estimate by less than its own error.
 */
const OVER_DECLARED_SHARE = 0.8;
/**
 * A limit kept lower is said only once this many limiting events read under OVER_DECLARED_SHARE: one may be jitter
 * (a window's edge, a clump of requests on a loaded machine). The reading is their median, so most of them must
 * agree.
 */
const KEPT_MIN_EVENTS = 3;
/** How often the coarser keys a learned key's answers fit too are checked against the traffic (ms): settleFits. */
const FITS_CHECK_MS = 1000;
/**
 * Within half a window of a pause of the counter (a ban's, a Retry-After's), a reading is evidence only from this
 * share of the declared limit up: a target that refuses after a few requests then is more likely still in the
 * state that paused the run (a ban's remainder) than keeping a limit under half the declared one. Above it, the
 * run offered what the target let through since the pause (a wait to a fixed window's reset, then the window-log
 * pace sends the target's whole window at once: the compressed over-declared row of tests/suite/rate-aware
 * read 60 of a declared 100, 0.75–0.97 s after the pause, in 15 of its 17 events).
 */
const KEPT_AFTER_PAUSE_SHARE = 0.5;
/**
 * Under a limit declared without its key, a reading is evidence only where the limited answer states a limit
 * (X-RateLimit-Limit, RateLimit-Policy `q`) and the count agrees with it within this share: two witnesses from
 * the target, its count and its word. A leaky bucket refusing bunched requests before the window's count reads
 * under its stated limit; a second limiter's statement (NestJS's 3 per second beside 100 per minute) reads far
 * from the count over the declared window.
 */
const KEPT_STATED_AGREEMENT = 0.2;
/** A reading of a limit kept lower is told again when it has moved by this share of the last one told. */
const TOLD_KEPT_CHANGE = 0.1;
/**
 * How long after a limiting event its window's count is read: the workers report their requests in batches
 * within 200 ms (specs/run/scheduler.ts REPORT_MS), so at the event the log may lack the last ones sent — most
 * where the whole limit goes out at once (a window log) and the limited answers follow within milliseconds.
 */
const KEPT_SETTLE_MS = 500;

interface Counter {
  readonly id: string;
  /** The declared limit (entry) it counts for; undefined for `other`. */
  readonly entry: number | undefined;
  /** The key it counts under (`other`: under none of them). */
  readonly key: RateKey | typeof OTHER;
  pacer: Pace | undefined;
  /** The pace the declared limit allows this counter; undefined for counters no declared limit governs. */
  readonly declaredPace: number | undefined;
  /** Most a lowered pace comes back to (additive increase). */
  ceiling: number | undefined;
  pausedUntil: number;
  lastEventAt: number;
  lastRaiseAt: number;
  requests: number;
  limited: number;
}

/** One declared limit's state: its keys, what it learned, and the requests it counted. */
interface EntryState {
  readonly index: number;
  /** Undefined: nothing declared (one entry then stands for the whole run, its key `address`). */
  readonly declared: DeclaredLimit | undefined;
  /** The keys whose counters are paced (never shrinks: a key is only added, on evidence). */
  readonly enforced: Set<RateKey>;
  readonly learned: LearnedKey[];
  /** The requests this limit counted (what a key is learned from: specs/run/key-model.ts). */
  readonly log: GrantLog;
  /** When limited answers came, by scope (what refutes a key). */
  readonly limitedLog: GrantLog;
  /**
   * The requests counted apart (scopes.ts ApartMark: to no declared route or method; without a credential to a
   * route that needs one, under `identity`) that this limit is seen counting with the rest: none until a limited
   * answer says so (one to such a request, or, unrouted, one their counts explain), or an answer to one states
   * the requests left — of this limit, where it states which (its limit), else of every limit that counts the
   * request. Kept per limit: a gateway in front may count them where the service behind does not.
   */
  readonly withTheRest: Set<ApartMark>;
  /** Each limiting event's requests over the window where the target kept this limit lower than declared. */
  readonly keptCounts: number[];
  /** Their median (the reading reported), and the reading last told (onOverDeclared). */
  overDeclared: OverDeclared | undefined;
  toldKept: number | undefined;
  /** The limit the target's limited answers stated, where a reading stood on it (KEPT_STATED_AGREEMENT). */
  keptStated?: number;
}

interface TargetState {
  readonly policy: TargetPolicy;
  readonly startedAt: number;
  /** When the run's first request went out (Infinity until then): the pace reached is read over no more. */
  firstSentAt: number;
  /** When the coarser keys learned keys' answers fit too were last checked against the traffic (settleFits). */
  fitsCheckedAt: number;
  readonly deadline: number;
  /** The declared limits, in the profile's order (one without a declared limit). */
  readonly entries: readonly EntryState[];
  readonly counters: Map<string, Counter>;
  /** Every request of the run (the pace reached by requests no declared limit counts). */
  readonly log: GrantLog;
  /** Things the traffic said that the profile did not (a declared limit too high, a policy the answers state). */
  readonly notes: string[];
  /**
   * Under `credential`: the target counts a credential's spellings as one (it keys the parsed credential):
   * false until a limited answer says so. Till then each spelling after a credential's first counts apart.
   */
  countsSpellingsTogether: boolean;
  /** Per credential (its digest as parsed), the digest of the spelling the run sent first. */
  readonly firstSpelling: Map<string, string>;
  holder: string | undefined;
  /** When the run as a whole is paused (exclusive use's cooldown). */
  pausedUntil: number;
  /** Fuzz rules that have asked for their share of the time (fuzzShare). */
  fuzzStarted: number;
  /** Slots handed out: what `budget.maxRequests` counts (a slot is a request that may go out). */
  granted: number;
  /** Requests reported sent. */
  sent: number;
  limited: number;
  waitedMs: number;
  slowestWaitMs: number;
  /** Without a declared window: how long a limited answer naming no wait is waited out. */
  learnedWaitMs: number;
  /** When the last pause of a counter ended: an event soon after it means the wait was too short. */
  lastResumeAt: number;
  lastLimitedAt: number;
  readonly reasons: Record<string, number>;
  /** Limiting events whose window's count is read once the workers' reports of it are in (KEPT_SETTLE_MS). */
  readonly pendingKept: PendingKept[];
}

/** A limiting event that may say a declared limit is kept lower: the limits to read, at the event's time. */
interface PendingKept {
  readonly at: number;
  readonly scope: RequestScope;
  readonly entries: readonly EntryState[];
  /** The entries a counter of which was paused within the last half window (KEPT_AFTER_PAUSE_SHARE). */
  readonly afterPause: ReadonlySet<EntryState>;
  /** The limit the answer stated, for the entries declared without their key (KEPT_STATED_AGREEMENT). */
  readonly stated?: { readonly limit: number; readonly entries: ReadonlySet<EntryState> };
}

export interface CoordinatorOptions {
  /**
   * False: the scheduler learns nothing — an undeclared key is taken as `identity` (the reading from before
   * the scheduler learned keys, not UNDECLARED_KEYS), no key is added by a limited answer, no pace is learned.
   * A diagnostic (GATECHECK_SCHEDULER_LEARNING=off) that shows the project's tests of the learning can fail.
   */
  readonly learn?: boolean;
  /**
   * Told each time a target is seen keeping a declared limit lower than declared (a new low): the run's set-up
   * prints a revised estimate (specs/setup/estimate.ts). `index` is the limit's place in the profile's list.
   */
  readonly onOverDeclared?: (index: number, seen: OverDeclared) => void;
}

/** A request's scope as a limit counts it: the requests counted apart with the rest once it counts them. */
function asCounted(e: EntryState, scope: RequestScope): RequestScope {
  let counted = scope;
  for (const mark of e.withTheRest) counted = withTheRest(counted, mark);
  return counted;
}

/** Whether `e` may yet learn it counts the requests of `mark` (those without a credential only per identity). */
function mayLearn(e: EntryState, mark: ApartMark): boolean {
  return !e.withTheRest.has(mark) && (mark === 'unrouted' || e.enforced.has('identity'));
}

/** Whether an answer's policy rate (requests/s, declaredRateHint) is `e`'s declared one. */
function statesRateOf(e: EntryState, rate: number | undefined): boolean {
  const d = e.declared;
  return rate !== undefined && d !== undefined && Math.abs(rate - d.limit / d.windowSeconds) < 1e-9;
}

/** The report's notes when a limit is seen counting the requests of a mark: by a limited answer, or announced. */
const APART_NOTES: Readonly<Record<ApartMark, { readonly limited: string; readonly announced: string }>> = {
  unrouted: { limited: UNROUTED_LIMITED, announced: UNROUTED_ANNOUNCED },
  unidentified: { limited: UNIDENTIFIED_LIMITED, announced: UNIDENTIFIED_ANNOUNCED },
};

export class RunCoordinator {
  private readonly targets = new Map<string, TargetState>();
  private readonly learn: boolean;
  private readonly onOverDeclared: CoordinatorOptions['onOverDeclared'];

  constructor(
    private readonly clock: () => number = Date.now,
    options: CoordinatorOptions = {},
  ) {
    this.learn = options.learn ?? true;
    this.onOverDeclared = options.onOverDeclared;
  }

  /** Idempotent: the first registration of a target fixes its policy for the run. */
  register(target: string, policy: TargetPolicy): void {
    if (this.targets.has(target)) return;
    const now = this.clock();
    const declared = declaredLimits(policy);
    const longest = Math.max(10, ...declared.map((d) => d.windowSeconds)) * 1000;
    const entry = (index: number, d: DeclaredLimit | undefined): EntryState => {
      const windowMs = (d?.windowSeconds ?? 10) * 1000;
      return {
        index,
        declared: d,
        // No limit declared: one counter for the whole run, learned from its first limited answer.
        enforced: new Set(
          d === undefined
            ? ['address']
            : d.key !== undefined
              ? [d.key]
              : this.learn
                ? UNDECLARED_KEYS
                : ['identity'],
        ),
        learned: [],
        log: new GrantLog(Math.max(20_000, 8 * windowMs)),
        limitedLog: new GrantLog(Math.max(20_000, 8 * windowMs)),
        withTheRest: new Set(),
        keptCounts: [],
        overDeclared: undefined,
        toldKept: undefined,
      };
    };
    this.targets.set(target, {
      policy,
      startedAt: now,
      firstSentAt: Number.POSITIVE_INFINITY,
      fitsCheckedAt: now,
      deadline: now + policy.maxSeconds * 1000,
      entries: declared.length === 0 ? [entry(0, undefined)] : declared.map((d, i) => entry(i, d)),
      counters: new Map(),
      log: new GrantLog(Math.max(20_000, 8 * longest)),
      notes: [],
      countsSpellingsTogether: false,
      firstSpelling: new Map(),
      holder: undefined,
      pausedUntil: 0,
      fuzzStarted: 0,
      granted: 0,
      sent: 0,
      limited: 0,
      waitedMs: 0,
      slowestWaitMs: 0,
      learnedWaitMs: LEARNED_WAIT_STEP_MS,
      lastResumeAt: 0,
      lastLimitedAt: 0,
      reasons: {},
      pendingKept: [],
    });
  }

  private state(target: string): TargetState {
    const s = this.targets.get(target);
    if (s === undefined) throw new TypeError(`target not registered with the scheduler: ${target}`);
    return s;
  }

  /**
   * A worker's scope as the run counts it now: a credential's first spelling, and every spelling once the target
   * counts them as one, in the credential's own counter — its other spellings apart till then
   * (RequestScope.spelling). Its marks of requests counted apart stay: each limit reads them (asCounted).
   */
  private scopeOf(s: TargetState, text: string): RequestScope {
    const scope = decodeScope(text);
    if (scope.spelling === undefined) return scope;
    if (s.countsSpellingsTogether) return parsed(scope);
    const first = s.firstSpelling.get(scope.credential);
    if (first === undefined) s.firstSpelling.set(scope.credential, scope.spelling);
    return first === undefined || first === scope.spelling ? parsed(scope) : scope;
  }

  /** The declared limits that count a request of `scope` (none: it falls in `other`). */
  private entriesOf(s: TargetState, scope: RequestScope): EntryState[] {
    if (!scope.counted) return [];
    if (scope.entries === undefined) return [...s.entries];
    return scope.entries.map((i) => s.entries[i]).filter((e): e is EntryState => e !== undefined);
  }

  /**
   * The counters a request of `scope` counts against under the keys in force of every limit that counts it
   * (specs/run/scopes.ts); `other` when none does.
   */
  private countersOf(s: TargetState, scope: RequestScope): Counter[] {
    const ids = new Set<string>();
    for (const e of this.entriesOf(s, scope))
      for (const key of e.enforced) ids.add(entryCounter(e.index, counterOf(key, asCounted(e, scope))));
    if (ids.size === 0) ids.add(OTHER);
    return [...ids].map((id) => this.counter(s, id));
  }

  private counter(s: TargetState, id: string): Counter {
    let c = s.counters.get(id);
    if (c === undefined) {
      const { entry, raw } = splitCounter(id);
      const d = raw === OTHER ? undefined : s.entries[entry]?.declared;
      // Declared counters are paced from the start; the others only once they are limited. Requests without a
      // credential are counted per address (as targets count anonymous clients), the key declared or not.
      const pacer =
        d !== undefined && governed(id)
          ? paceForDeclared(d.limit, d.windowSeconds, {
              ...(d.burst === undefined ? {} : { burst: d.burst }),
              // A declared key and no burst: the profile says the target takes its whole limit back to back.
              wholeLimit: takesWholeLimit(d),
            })
          : undefined;
      c = {
        id,
        entry: raw === OTHER ? undefined : entry,
        key: raw === OTHER ? OTHER : keyOfCounter(raw),
        pacer,
        declaredPace: pacer?.perSecond,
        ceiling: pacer?.perSecond,
        pausedUntil: 0,
        lastEventAt: Number.NEGATIVE_INFINITY,
        lastRaiseAt: Number.NEGATIVE_INFINITY,
        requests: 0,
        limited: 0,
      };
      s.counters.set(id, c);
    }
    return c;
  }

  /** How long a counter must go without a limited answer before its lowered pace is raised again. */
  private quietMs(s: TargetState, c: Counter): number {
    const w = c.entry === undefined ? undefined : s.entries[c.entry]?.declared?.windowSeconds;
    return Math.max(2000, w === undefined ? 2 * s.learnedWaitMs : w * 1000);
  }

  /** Additive increase: a lowered pace gains a share of its ceiling after each quiet window. */
  private raise(s: TargetState, c: Counter, now: number): void {
    if (c.pacer === undefined || c.ceiling === undefined || c.pacer.perSecond >= c.ceiling) return;
    const quiet = this.quietMs(s, c);
    if (now - c.lastEventAt < quiet || now - c.lastRaiseAt < quiet) return;
    c.pacer.setRate(Math.min(c.ceiling, c.pacer.perSecond + INCREASE_SHARE * c.ceiling));
    c.lastRaiseAt = now;
  }

  /**
   * `want` send slots for a request of `scope` (encoded, specs/run/scopes.ts) — paced slots only as many as
   * asked for, since a slot reserved and not used is pace lost to every other worker; unpaced ones at least
   * UNPACED_LEASE. `holder` is the caller's id: while a holder has exclusive use, only it gets slots.
   * `provoking` slots (a rate-limit rule's burst) are neither paused nor paced.
   */
  lease(target: string, scopeText: string, want: number, holder: string, provoking = false): LeaseAnswer {
    const s = this.state(target);
    const now = this.clock();
    const left = s.policy.maxRequests - s.granted;
    if (left <= 0) return { exhausted: `budget.maxRequests (${s.policy.maxRequests}) is spent` };
    if (now >= s.deadline) return { exhausted: `budget.maxSeconds (${s.policy.maxSeconds} s) has run out` };
    if (s.holder !== undefined && s.holder !== holder) return { retryAt: now + 100 };
    const scope = this.scopeOf(s, scopeText);
    const counters = this.countersOf(s, scope);
    const paced = counters.filter((c) => c.pacer !== undefined);
    // Unpaced slots are only a count: a worker gets some ahead, so it need not ask for every request.
    const unpaced = provoking || paced.length === 0;
    const n = Math.max(1, Math.min(unpaced ? Math.max(want, UNPACED_LEASE) : want, left));
    const immediately = () => Array.from({ length: n }, () => now);
    if (provoking) return this.grant(s, scope, counters, immediately());
    const pausedUntil = Math.max(s.pausedUntil, ...counters.map((c) => c.pausedUntil));
    if (pausedUntil > now) return { retryAt: pausedUntil };
    if (paced.length === 0) return { ...this.grant(s, scope, counters, immediately()), unpaced: true };
    for (const c of paced) this.raise(s, c, now);
    const at: number[] = [];
    while (at.length < n) {
      // The earliest time every counter of the request allows, reserved in each.
      const t = Math.max(...paced.map((c) => (c.pacer as Pace).earliest(now)));
      if (t >= s.deadline) break;
      // A slot beyond the horizon that one counter sets is not reserved in the others (a GCRA slot taken in the
      // future holds its counter back until then): the worker asks again when that counter allows it.
      if (at.length === 0 && paced.length > 1 && t > now + LEASE_HORIZON_MS) return { retryAt: t };
      for (const c of paced) (c.pacer as Pace).take(t);
      at.push(t);
      if (t > now + LEASE_HORIZON_MS) break;
    }
    if (at.length === 0) return { exhausted: `budget.maxSeconds (${s.policy.maxSeconds} s) has run out` };
    return this.grant(s, scope, counters, at);
  }

  private grant(
    s: TargetState,
    _scope: RequestScope,
    _counters: readonly Counter[],
    at: number[],
  ): { at: number[]; lastLimitedAt: number } {
    s.granted += at.length;
    return { at, lastLimitedAt: s.lastLimitedAt };
  }

  /**
   * Requests that went out (a worker reports them in batches: `[scope, epoch ms]`): what the key is learned
   * from and what the report counts. Slots granted and not used (a worker's unpaced lease left over) are not.
   */
  sent(target: string, entries: readonly (readonly [string, number])[]): void {
    const s = this.state(target);
    this.settleKept(s, this.clock());
    this.settleFits(s, this.clock());
    // A batch holds a few distinct scopes (every fuzz case of a route shares one): each is decoded, and its
    // entries and counters looked up, once per batch — nothing in this loop changes them.
    const known = new Map<string, { scope: RequestScope; entries: EntryState[]; counters: Counter[] }>();
    for (const [scopeText, at] of entries) {
      let seen = known.get(scopeText);
      if (seen === undefined) {
        const scope = this.scopeOf(s, scopeText);
        seen = { scope, entries: this.entriesOf(s, scope), counters: this.countersOf(s, scope) };
        known.set(scopeText, seen);
      }
      const { scope } = seen;
      s.sent++;
      if (at < s.firstSentAt) s.firstSentAt = at;
      s.log.add(scope, [at]);
      for (const e of seen.entries) e.log.add(asCounted(e, scope), [at]);
      for (const c of seen.counters) c.requests++;
    }
  }

  /**
   * A request of `scope` met a limited answer. First, which key explains it: where the keys in force do not
   * (none of its counters there had gone past the declared rate) and another key's counter had, that key is
   * added (specs/run/key-model.ts); an answer to a request the run took for one the target answers before its
   * limit, or one their counts explain, says it counts them (countsUnrouted). Then the request's counters under
   * the keys in force pause until the wait the answer asks for has passed — else the declared window, else the
   * learned wait — and, for a new limiting event the keys do not explain, the fullest of them slows down (the
   * rate an answer's RateLimit-Policy declares caps a learned pace).
   */
  limited(
    target: string,
    signal: LimitSignal,
    scopeText: string,
    declaredRate?: number,
    stated?: number,
    sentAt?: number,
  ): LimitedAnswer {
    const s = this.state(target);
    let scope = this.scopeOf(s, scopeText);
    const now = this.clock();
    s.limited++;
    s.lastLimitedAt = now;
    s.reasons[signal.reason] = (s.reasons[signal.reason] ?? 0) + 1;
    const entries = this.entriesOf(s, scope);
    for (const e of entries) e.limitedLog.add(scope, [now]);
    // A counter in force already paused (or limited within its window) explains it: the answer to a request
    // sent in a slot granted before that pause. Only an answer nothing in force explains teaches a key — and
    // one whose governed counters had come near their limit (jitter?) only with others from other counters.
    // Each declared limit learns its own key.
    const before = this.countersOf(s, scope);
    const explained = before.some((c) => c.pausedUntil > now || now - c.lastEventAt < this.windowMsOf(s, c));
    const added: LearnedKey[] = [];
    // A limited answer to a request the run took for one the target answers before its limit says it counts
    // them: from now on they count with the rest (the same counters, one pace). That is this event's lesson.
    // Likewise a limited answer to a request without a credential to a route that needs one, under `identity` —
    // where it is a limit per identity's: every limit that counts the request is one, or the answer's policy
    // states one's rate (a gateway per address in front limits such requests too, and says nothing of the rest).
    const learnsApart = (mark: ApartMark) =>
      this.learn && scope.counted && scope[mark] === true && entries.some((e) => mayLearn(e, mark));
    let countsUnrouted = learnsApart('unrouted');
    const countsUnidentified =
      learnsApart('unidentified') &&
      (entries.every((e) => e.enforced.has('identity')) ||
        entries.some((e) => e.enforced.has('identity') && statesRateOf(e, declaredRate)));
    // The finer reading first: a credential's spellings together had gone past the declared rate where the
    // request's own had not — the target keys the parsed credential (before any coarser key is added).
    const countsSpellings =
      this.learn &&
      !countsUnrouted &&
      !countsUnidentified &&
      !explained &&
      !s.countsSpellingsTogether &&
      entries.some((e) => spellingExplains(e.declared, e.enforced, e.log, scope, now));
    if (!countsUnrouted && !countsUnidentified && !countsSpellings && !explained && this.learn) {
      for (const e of entries) {
        const d = e.declared;
        if (d === undefined) continue;
        const mine = before.filter((c) => c.entry === e.index && c.declaredPace !== undefined);
        const jitterSuspect = mine.some((c) =>
          nearFull(d, c.key as RateKey, splitCounter(c.id).raw, e.log, now),
        );
        for (const learned of explainLimited(
          d,
          e.enforced,
          e.log,
          e.limitedLog,
          scope,
          now,
          jitterSuspect,
          sentAt,
        )) {
          e.enforced.add(learned.key);
          const labelled =
            s.entries.length > 1 ? { ...learned, entry: d.label ?? `limit ${e.index + 1}` } : learned;
          e.learned.push(labelled);
          added.push(labelled);
        }
      }
      // No key explains it, but the unrouted requests counted with the rest do.
      countsUnrouted =
        added.length === 0 &&
        entries.some(
          (e) => mayLearn(e, 'unrouted') && unroutedExplains(e.declared, e.enforced, e.log, scope, now),
        );
    }
    // Which of the limits that count the request limited it, the answer does not say: all of them count them.
    for (const [mark, learns] of [
      ['unrouted', countsUnrouted],
      ['unidentified', countsUnidentified],
    ] as const) {
      if (!learns) continue;
      this.learnWithTheRest(s, entries, mark, APART_NOTES[mark].limited);
      scope = withTheRest(scope, mark);
    }
    if (countsSpellings) {
      s.countsSpellingsTogether = true;
      scope = parsed(scope);
      s.notes.push(SPELLINGS_COUNTED);
    }
    const inForce = this.countersOf(s, scope);
    // The counters a declared limit governs pause — of the limit the answer most likely came from (its counter
    // the fullest of its limit), not every limit that counts the request; a request none governs pauses its
    // own (learned) ones.
    const governedHere = inForce.filter((c) => c.declaredPace !== undefined);
    const culprit = this.fullestEntry(s, scope, governedHere, now);
    const counters =
      governedHere.length === 0
        ? inForce
        : governedHere.filter((c) => culprit === undefined || c.entry === culprit.index);
    // Answers to requests that were in flight together are one event, seen by several requests.
    const learnedHere = added.length > 0 || countsUnrouted || countsUnidentified || countsSpellings;
    const sameEvent =
      !learnedHere && counters.some((c) => c.pausedUntil > now || now - c.lastEventAt < SAME_EVENT_MS);
    if (!sameEvent && !learnedHere && this.learn && signal.kind === 'limited')
      this.seeOverDeclared(s, scope, counters, now, stated);
    let wait = signal.waitMs;
    if (wait === undefined) wait = sameEvent ? 0 : this.defaultWait(s, signal, now, culprit?.declared);
    const resumeAt = now + wait + WAIT_MARGIN_MS;
    const alreadyUntil = Math.max(0, ...counters.map((c) => c.pausedUntil));
    this.pause(s, now, alreadyUntil, resumeAt);
    for (const c of counters) {
      c.limited++;
      c.pausedUntil = Math.max(c.pausedUntil, resumeAt);
      if (!sameEvent) c.lastEventAt = now;
    }
    if (!sameEvent && !learnedHere && this.learn) this.slowDown(s, scope, counters, now, declaredRate);
    const until = Math.max(...counters.map((c) => c.pausedUntil));
    s.lastResumeAt = Math.max(s.lastResumeAt, until);
    return { resumeAt: until, affordable: until < s.deadline };
  }

  /**
   * The target's answer to a request of `scopeText` stated how many requests are left (countedByLimiter): its
   * limiter counted it. For a request the run took for one the target answers before its limit, that is the
   * lesson a limited answer would teach, learned before any: they count with the rest from now on.
   */
  counted(target: string, scopeText: string, limit?: number): void {
    const s = this.state(target);
    if (!this.learn) return;
    const scope = decodeScope(scopeText);
    const mark: ApartMark | undefined =
      scope.unrouted === true ? 'unrouted' : scope.unidentified === true ? 'unidentified' : undefined;
    if (!scope.counted || mark === undefined) return;
    const counting = this.entriesOf(s, scope);
    // The limit the answer states names the one that counted it; else (none stated, or none of these) all do.
    const named = counting.filter((e) => limit !== undefined && e.declared?.limit === limit);
    this.learnWithTheRest(s, named.length > 0 ? named : counting, mark, APART_NOTES[mark].announced);
  }

  /** Of `entries`, those that may learn it count the requests of `mark` with the rest from now on; notes say so. */
  private learnWithTheRest(
    s: TargetState,
    entries: readonly EntryState[],
    mark: ApartMark,
    note: string,
  ): void {
    for (const e of entries.filter((x) => mayLearn(x, mark))) {
      e.withTheRest.add(mark);
      s.notes.push(s.entries.length > 1 ? `${e.declared?.label ?? `limit ${e.index + 1}`}: ${note}` : note);
    }
  }

  /** The window of the limit a counter counts for (0 for `other`). */
  private windowMsOf(s: TargetState, c: Counter): number {
    return (c.entry === undefined ? 0 : (s.entries[c.entry]?.declared?.windowSeconds ?? 0)) * 1000;
  }

  /** Requests `c` received over its limit's last window, as a share of the limit. */
  private fullness(s: TargetState, scope: RequestScope, c: Counter, now: number): number {
    const e = c.entry === undefined ? undefined : s.entries[c.entry];
    const d = e?.declared;
    if (e === undefined || d === undefined || c.key === OTHER) return 0;
    return e.log.count(c.key, counterOf(c.key, scope), d.windowSeconds * 1000, now) / d.limit;
  }

  /** Of the limits whose counters `governing` are, the one nearest its limit (the first on a tie). */
  private fullestEntry(
    s: TargetState,
    scope: RequestScope,
    governing: readonly Counter[],
    now: number,
  ): EntryState | undefined {
    let best: { entry: EntryState; full: number } | undefined;
    for (const c of governing) {
      const entry = c.entry === undefined ? undefined : s.entries[c.entry];
      if (entry === undefined) continue;
      const full = this.fullness(s, scope, c, now);
      if (best === undefined || full > best.full) best = { entry, full };
    }
    return best?.entry;
  }

  /**
   * How long a limited answer that names no wait is waited out: a ban's declared length, else the window of
   * the declared limit it came from (any fixed or moving window has turned over by then, a leaky bucket
   * drained), else the learned wait — one second more each time a new event follows the end of the last pause
   * within a second.
   */
  private defaultWait(
    s: TargetState,
    signal: LimitSignal,
    now: number,
    d: DeclaredLimit | undefined,
  ): number {
    if (signal.kind === 'banned' && s.policy.ban?.seconds !== undefined) return s.policy.ban.seconds * 1000;
    if (d !== undefined) return d.windowSeconds * 1000;
    if (s.lastResumeAt > 0 && now - s.lastResumeAt < LEARNED_WAIT_STEP_MS)
      s.learnedWaitMs = Math.min(MAX_LEARNED_WAIT_MS, s.learnedWaitMs + LEARNED_WAIT_STEP_MS);
    return s.learnedWaitMs;
  }

  /**
   * A limiting event no key explains. A counter the declared limit governs keeps its pace — the pace never
   * goes below what the declared limit allows: the answer is waited out, and the report says the declared
   * limit (or burst) looks too high. Only a request that no governed counter paces (nothing declared, or
   * requests the declared limit does not count) slows down, once per event: an unpaced counter gets half the
   * rate it had reached over the last few seconds (since the run's first request, if that is sooner: at least a
   * second), a paced one 70 % of its pace; the ceiling it may climb back
   * to is 90 % of the rate that was limited (or the rate the answer's RateLimit-Policy states, if lower).
   */
  private slowDown(
    s: TargetState,
    scope: RequestScope,
    counters: readonly Counter[],
    now: number,
    declaredRate: number | undefined,
  ): void {
    // A run limited in its first seconds reached its rate over those seconds alone. Over 5 s it would read a
    // fraction of it, and the ceiling (90 % of it) would hold the pace there for the rest of the run: a real
    // nginx limit_req (6 r/s, burst 10) refused the run's first clump 33 ms in, and the run went at 3 r/s for
    // 14 minutes.
    const spanMs = Math.min(5000, Math.max(1000, now - s.firstSentAt));
    const reachedOf = (c: Counter) => {
      const e = c.entry === undefined ? undefined : s.entries[c.entry];
      const count =
        e === undefined || c.key === OTHER
          ? s.log.count('address', counterOf('address', scope), spanMs, now)
          : e.log.count(c.key, counterOf(c.key, scope), spanMs, now);
      return count / (spanMs / 1000);
    };
    const governing = counters
      .filter((c) => c.declaredPace !== undefined)
      .sort((a, b) => reachedOf(b) - reachedOf(a))[0];
    if (governing !== undefined) {
      const note = `the target limited requests of ${counterLabel(governing.id)} while they went within its declared pace (${round(governing.declaredPace ?? 0)} requests/s): jitter on the way, or a declared limit (or burst) that is too high; each such answer was waited out`;
      if (!s.notes.includes(note)) s.notes.push(note);
      return;
    }
    // The fullest: an unpaced counter first (nothing held it back), else the one nearest its pace.
    const fullness = (c: Counter) =>
      c.pacer === undefined ? Number.POSITIVE_INFINITY : reachedOf(c) / c.pacer.perSecond;
    const c = [...counters].sort((a, b) => fullness(b) - fullness(a))[0];
    if (c === undefined) return;
    const hint = declaredRate === undefined ? Number.POSITIVE_INFINITY : declaredRate * PACE_MARGIN;
    if (c.pacer === undefined) {
      const reached = Math.max(MIN_LEARNED_PACE, reachedOf(c));
      const pace = Math.max(MIN_LEARNED_PACE, Math.min(reached / 2, hint));
      c.pacer = new Pacer(pace, 1);
      c.ceiling = Math.max(pace, Math.min(reached * PACE_MARGIN, hint));
      c.lastRaiseAt = now;
      return;
    }
    const before = c.pacer.perSecond;
    const next = Math.max(MIN_LEARNED_PACE, Math.min(before * DECREASE, hint));
    c.pacer.setRate(next);
    c.ceiling = Math.max(next, Math.min(c.ceiling ?? before, before * PACE_MARGIN));
    c.lastRaiseAt = now;
  }

  /**
   * A new limiting event (not a ban's 403: a ban goes on whatever the count) on counters a declared limit with
   * its key and no burst governs — or a limit declared without its key, where the answer states a lower limit
   * (`stated`, KEPT_STATED_AGREEMENT) — marked where a counter's pause ended within the last half window
   * (KEPT_AFTER_PAUSE_SHARE).
   * Its count is read once the workers have reported the requests sent before it (settleKept).
   */
  private seeOverDeclared(
    s: TargetState,
    scope: RequestScope,
    counters: readonly Counter[],
    now: number,
    stated: number | undefined,
  ): void {
    // Only a declaration that says how the target counts can be contradicted by a count: its key, and its burst
    // where it has one. A declared burst is a second, shorter window: its limited answers say nothing of the long
    // one's count. A limit and a window alone may be a leaky bucket's rate, which refuses requests that come
    // bunched before the window's count is reached (nginx `limit_req` at 60 r/s with an undeclared burst of 10,
    // a profile declaring 60 per 1 s: three events in a loaded CI run read 43) — unless the target states its
    // limit on the answer, and the count agrees (settleKept).
    const statesLower = (limit: number) => stated !== undefined && stated < OVER_DECLARED_SHARE * limit;
    const governed = counters.filter((c) => {
      const declared = c.entry === undefined ? undefined : s.entries[c.entry]?.declared;
      return (
        c.declaredPace !== undefined &&
        declared !== undefined &&
        (declared.key !== undefined || statesLower(declared.limit)) &&
        declared.burst === undefined
      );
    });
    const entries = new Set<EntryState>();
    const afterPause = new Set<EntryState>();
    const byStatement = new Set<EntryState>();
    for (const c of governed) {
      const entry = s.entries[c.entry as number] as EntryState;
      entries.add(entry);
      if (entry.declared?.key === undefined) byStatement.add(entry);
      const windowMs = (entry.declared?.windowSeconds ?? 0) * 1000;
      if (Math.max(c.pausedUntil, s.pausedUntil) > now - windowMs / 2) afterPause.add(entry);
    }
    if (entries.size === 0) return;
    s.pendingKept.push({
      at: now,
      scope,
      entries: [...entries],
      afterPause,
      ...(stated === undefined || byStatement.size === 0
        ? {}
        : { stated: { limit: stated, entries: byStatement } }),
    });
  }

  /**
   * The coarser keys a learned key's answers fit too (LearnedKey.alsoFits), less those the traffic has refuted
   * since (key-model.ts withoutRefuted): checked every FITS_CHECK_MS (`all`: now), over the windows the log keeps.
   */
  private settleFits(s: TargetState, now: number, all = false): void {
    if (!all && now - s.fitsCheckedAt < FITS_CHECK_MS) return;
    s.fitsCheckedAt = now;
    for (const e of s.entries) {
      const d = e.declared;
      if (d === undefined) continue;
      e.learned.forEach((l, i) => {
        e.learned[i] = withoutRefuted(d, l, e.log, e.limitedLog, now);
      });
    }
  }

  /**
   * The limiting events KEPT_SETTLE_MS old (every one, `all`): what the target let through of the request's
   * counter over the window — requests sent less limited answers (a window log sends the whole limit at once, and
   * the target limits the rest) — under every key, in force or not: the key the run goes by may not yet be the
   * target's. If even the fullest is clearly under the declared limit (OVER_DECLARED_SHARE), the target keeps
   * that limit lower. The reading is the median over such events (the lower one): a window may still hold
   * requests from before a short pause. It goes to the report (politeness `overDeclared`), and is told
   * (onOverDeclared) first and whenever it moves by a tenth.
   */
  private settleKept(s: TargetState, now: number, all = false): void {
    while (s.pendingKept.length > 0) {
      const event = s.pendingKept[0] as PendingKept;
      if (!all && now - event.at < KEPT_SETTLE_MS) return;
      s.pendingKept.shift();
      for (const e of event.entries) {
        const d = e.declared as DeclaredLimit;
        const windowMs = d.windowSeconds * 1000;
        const readings: { key: RateKey; counter: string; requests: number }[] = [];
        for (const key of KEYS) {
          const counter = counterOf(key, asCounted(e, event.scope));
          if (counter === OTHER) continue;
          const requests =
            e.log.count(key, counter, windowMs, event.at) -
            e.limitedLog.count(key, counter, windowMs + KEPT_SETTLE_MS, event.at + KEPT_SETTLE_MS);
          readings.push({ key, counter, requests });
        }
        // A coarser key's counter holds every request a finer one of the same request holds (scopes.ts, the
        // lattice): its count is at least theirs. A finer reading above it is the log's lag (workers report in
        // batches) or a limited answer counted past the window, so the coarser key is read at least as full —
        // and, coarse first, named on a tie: the fullest counter is never a finer one than the facts require.
        let fullest: { counter: string; requests: number } | undefined;
        for (const { key, counter } of readings) {
          // covers() holds for the key itself: its own reading is among them.
          const held = Math.max(...readings.filter((r) => covers(key, r.key)).map((r) => r.requests));
          if (fullest === undefined || held > fullest.requests) fullest = { counter, requests: held };
        }
        if (
          fullest === undefined ||
          fullest.requests < 1 ||
          fullest.requests >= OVER_DECLARED_SHARE * d.limit ||
          (event.afterPause.has(e) && fullest.requests < KEPT_AFTER_PAUSE_SHARE * d.limit)
        )
          continue;
        const stated = event.stated?.entries.has(e) ? event.stated.limit : undefined;
        if (stated !== undefined && Math.abs(fullest.requests - stated) > KEPT_STATED_AGREEMENT * stated)
          continue;
        this.keptLower(e, d, entryCounter(e.index, fullest.counter), fullest.requests, stated);
      }
    }
  }

  /**
   * A reading of `e` kept lower: from KEPT_MIN_EVENTS events on, the median over its events so far, told first and
   * when it moved by a tenth.
   */
  private keptLower(
    e: EntryState,
    d: DeclaredLimit,
    counter: string,
    requests: number,
    stated: number | undefined,
  ): void {
    e.keptCounts.push(requests);
    if (stated !== undefined) e.keptStated = stated;
    if (e.keptCounts.length < KEPT_MIN_EVENTS) return;
    const sorted = [...e.keptCounts].sort((a, b) => a - b);
    const median = sorted[Math.floor((sorted.length - 1) / 2)] as number;
    e.overDeclared = {
      limit: d.label ?? `limit ${e.index + 1}`,
      counter,
      requests: median,
      events: sorted.length,
      declared: d.limit,
      windowSeconds: d.windowSeconds,
      ...(e.keptStated === undefined ? {} : { stated: e.keptStated }),
    };
    if (e.toldKept !== undefined && Math.abs(median - e.toldKept) < TOLD_KEPT_CHANGE * e.toldKept) return;
    e.toldKept = median;
    this.onOverDeclared?.(e.index, e.overDeclared);
  }

  /** Counts a pause from `now` until `until` in the wait figures (the part not already paused). */
  private pause(s: TargetState, now: number, alreadyUntil: number, until: number): void {
    if (until <= alreadyUntil) return;
    s.waitedMs += until - Math.max(now, alreadyUntil);
    s.slowestWaitMs = Math.max(s.slowestWaitMs, until - now);
  }

  /**
   * Exclusive use of the target for `holder` (a rate-limit rule), where a counter in force is shared by the
   * whole run — per address, or per endpoint (the burst's endpoint is every rule's too): others get no slot
   * until `release`. The answer says when the holder may start — once slots already handed out have landed
   * and any pause is over — or that the keys in force need none (each identity, each credential its own).
   */
  exclusive(target: string, holder: string): { startAt: number } | { retryAt: number } | { notNeeded: true } {
    const s = this.state(target);
    if (!s.entries.some((e) => [...e.enforced].some(sharedByTheRun))) return { notNeeded: true };
    const now = this.clock();
    if (s.holder !== undefined && s.holder !== holder) return { retryAt: now + 100 };
    s.holder = holder;
    const paused = Math.max(s.pausedUntil, ...[...s.counters.values()].map((c) => c.pausedUntil));
    return { startAt: Math.max(now + DRAIN_MS, paused) };
  }

  /** Ends exclusive use; the run stays paused for `cooldownMs` (the window the holder's burst used up). */
  release(target: string, holder: string, cooldownMs: number): void {
    const s = this.state(target);
    if (s.holder !== holder) return;
    s.holder = undefined;
    const now = this.clock();
    const until = now + Math.max(0, cooldownMs);
    this.pause(s, now, s.pausedUntil, until);
    s.pausedUntil = Math.max(s.pausedUntil, until);
  }

  /**
   * When a fuzz rule starting now must stop sending new cases: an equal share, per rule not yet started, of
   * the time left before the run's deadline (`parallel` rules run at once, one per worker). Coverage before
   * depth: a rule that meets a slow or limiting target cannot take the time of the rules after it.
   */
  fuzzShare(target: string, totalRules: number, parallel: number): number {
    const s = this.state(target);
    const now = this.clock();
    s.fuzzStarted++;
    const left = Math.max(1, totalRules - s.fuzzStarted + 1);
    const share = ((s.deadline - now) * Math.max(1, Math.min(parallel, left))) / left;
    return Math.min(s.deadline, now + Math.max(0, share));
  }

  /**
   * The pace a request of `scope` goes at now (requests/s: the slowest of its counters), undefined when none
   * paces it — what a fuzz rule sizes its cases and its time by before it starts.
   */
  paceFor(target: string, scopeText: string): number | undefined {
    const s = this.state(target);
    const paces = this.countersOf(s, this.scopeOf(s, scopeText))
      .map((c) => c.pacer?.perSecond)
      .filter((p): p is number => p !== undefined);
    return paces.length === 0 ? undefined : Math.min(...paces);
  }

  /** Milliseconds left before the run's deadline. */
  remainingMs(target: string): number {
    return this.state(target).deadline - this.clock();
  }

  politeness(): Politeness {
    const now = this.clock();
    for (const s of this.targets.values()) {
      this.settleKept(s, now, true);
      this.settleFits(s, now, true);
    }
    return politenessOf(
      [...this.targets.values()].map((s) => ({
        declared: s.entries[0]?.declared,
        enforced: [...(s.entries[0]?.enforced ?? [])],
        learned: s.entries.flatMap((e) => e.learned),
        ...(s.entries.length > 1
          ? {
              limits: s.entries.map((e) => ({
                label: e.declared?.label ?? `limit ${e.index + 1}`,
                declared: e.declared,
                enforced: [...e.enforced],
                learned: e.learned,
              })),
            }
          : {}),
        notes: s.notes,
        overDeclared: s.entries.flatMap((e) => (e.overDeclared === undefined ? [] : [e.overDeclared])),
        requests: s.sent,
        limited: s.limited,
        waitedMs: s.waitedMs,
        slowestWaitMs: s.slowestWaitMs,
        elapsedMs: now - s.startedAt,
        reasons: s.reasons,
        counters: [...s.counters.values()].map(
          (c): CounterPace => ({
            counter: c.id,
            requests: c.requests,
            limited: c.limited,
            ...(c.pacer === undefined ? {} : { pacePerSecond: c.pacer.perSecond }),
            ...(c.declaredPace === undefined ? {} : { declaredPerSecond: c.declaredPace }),
          }),
        ),
      })),
    );
  }
}

const round = (n: number): number => Math.round(n * 100) / 100;

/** The declared limits of a policy: `limits`, else `declared` alone, else none. */
export function declaredLimits(policy: TargetPolicy): readonly DeclaredLimit[] {
  return policy.limits ?? (policy.declared === undefined ? [] : [policy.declared]);
}
