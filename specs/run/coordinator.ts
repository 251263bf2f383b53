/**
 * The run's one request scheduler (docs/design.md "A polite client"): every request of the run — conformance
 * checks, fuzz plans, JWT attacks, in every Playwright worker — asks it for a slot first. It lives in the
 * runner process (global setup hosts it: specs/run/coordinator-server.ts) and keeps, per target:
 *  - the pace: the profile's declared limit (specs/run/pacer.ts), one pacer per bucket the limit is keyed on;
 *    where nothing is declared no pace at first, only the workers' concurrency; after the first limited
 *    answer a learned pace below the rate the run had reached;
 *  - the pause: a limited answer (429, or a 403 ban) stops every worker until its Retry-After (or RateLimit
 *    reset, or a doubling back-off) has passed;
 *  - the budget: `budget.maxRequests` requests and `budget.maxSeconds` of wall time for the whole run;
 *  - exclusive use: the rate-limit rules provoke the limit on purpose; where the limit is shared by the whole
 *    run (keyed per address or per endpoint) they get the target to themselves, and the run waits out their
 *    window before it goes on;
 *  - the cost of politeness for the report: requests, limited answers met, time spent waiting.
 * Pure logic with an injectable clock; the transport is elsewhere (coordinator-server.ts, scheduler.ts).
 */
import type { LimitSignal } from './limited-answer.ts';
import { PACE_MARGIN, Pacer, paceForLimit } from './pacer.ts';

/** What the rate limit is counted per (profile `rateLimit.key`). */
export type RateKey = 'address' | 'identity' | 'credential' | 'endpoint';

/** A target's limits as a worker registers them from its profile. */
export interface TargetPolicy {
  readonly declared?: {
    readonly limit: number;
    readonly windowSeconds: number;
    readonly burst?: number;
    readonly key: RateKey;
    /** The limit counts only the requests to one endpoint (profile `rateLimit.appliesTo`). */
    readonly onlyEndpoint?: boolean;
  };
  /** The target bans (403) after limiting; `seconds` when the profile says how long. */
  readonly ban?: { readonly seconds?: number };
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

/** The cost of politeness, as the report shows it. */
export interface Politeness {
  readonly requests: number;
  readonly limitedAnswers: number;
  /** Wall time during which the run was paused by limited answers or a rate-limit rule's window. */
  readonly waitedMs: number;
  readonly slowestWaitMs: number;
  /** The slowest pace in force at the end (requests per second), where there was one. */
  readonly pacePerSecond?: number;
  /** Limited answers by why they counted (`429`, `403 with Retry-After`, …). */
  readonly reasons: Readonly<Record<string, number>>;
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
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
/** Pauses shorter than this from an earlier one are the same event seen by another request. */
const SAME_EVENT_MS = 50;

/** Pause, pace and recent grants of one counter of the target (a scope: see `scopeOf`). */
interface Scope {
  pausedUntil: number;
  /** The declared pace, or a learned one after a limited answer the declared pace (if any) did not prevent. */
  pacer: Pacer | undefined;
  /** Grant times of the last few seconds, to measure the rate reached. */
  readonly recent: number[];
  lastLimitedAt: number;
  backoffMs: number;
}

interface TargetState {
  readonly policy: TargetPolicy;
  readonly deadline: number;
  readonly scopes: Map<string, Scope>;
  holder: string | undefined;
  /** When the run as a whole is paused (exclusive use's cooldown). */
  pausedUntil: number;
  /** Fuzz rules that have asked for their share of the time (fuzzShare). */
  fuzzStarted: number;
  sent: number;
  limited: number;
  waitedMs: number;
  slowestWaitMs: number;
  readonly reasons: Record<string, number>;
}

/** Whether the declared limit gives each identity, credential or endpoint a scope of its own. */
function scopeKeyed(s: TargetState): boolean {
  const key = s.policy.declared?.key;
  // A limit of one endpoint never counts the other requests, whatever its key: they are a scope of their own.
  if (s.policy.declared?.onlyEndpoint === true) return true;
  return key === 'identity' || key === 'credential' || key === 'endpoint';
}

/** The scope that stands for everything no declared per-identity or per-endpoint counter covers. */
const WHOLE_RUN = '*';

export class RunCoordinator {
  private readonly targets = new Map<string, TargetState>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** Idempotent: the first registration of a target fixes its policy for the run. */
  register(target: string, policy: TargetPolicy): void {
    if (this.targets.has(target)) return;
    this.targets.set(target, {
      policy,
      deadline: this.clock() + policy.maxSeconds * 1000,
      scopes: new Map(),
      holder: undefined,
      pausedUntil: 0,
      fuzzStarted: 0,
      sent: 0,
      limited: 0,
      waitedMs: 0,
      slowestWaitMs: 0,
      reasons: {},
    });
  }

  private state(target: string): TargetState {
    const s = this.targets.get(target);
    if (s === undefined) throw new TypeError(`target not registered with the scheduler: ${target}`);
    return s;
  }

  /**
   * Where a request of `bucket` is paused and paced. Where the declared limit counts per identity, credential or
   * endpoint, each such counter is a scope of its own (a 429 for one identity does not slow another), and so
   * are the requests no declared counter covers (''). Otherwise — limit per address, or none declared, so the
   * target's key is unknown — the whole run is one scope.
   */
  private scope(s: TargetState, bucket: string): Scope {
    const name = scopeKeyed(s) ? bucket : WHOLE_RUN;
    let scope = s.scopes.get(name);
    if (scope === undefined) {
      const d = s.policy.declared;
      // Declared counters are paced from the start; '' (nothing declared counts it) only once it is limited.
      const paced = d !== undefined && name !== '' && (name !== WHOLE_RUN || d.key === 'address');
      scope = {
        pausedUntil: 0,
        pacer: paced ? paceForLimit(d.limit, d.windowSeconds, d.burst) : undefined,
        recent: [],
        lastLimitedAt: 0,
        backoffMs: FIRST_BACKOFF_MS,
      };
      s.scopes.set(name, scope);
    }
    return scope;
  }

  /**
   * `want` send slots in `bucket` (what the declared limit is keyed on: `all`, an identity, a path; '' for
   * requests no declared limit counts) — paced slots only as many as asked for, since a slot reserved and not
   * used is pace lost to every other worker; unpaced ones at least UNPACED_LEASE. `holder` is the caller's id: while a holder has exclusive use,
   * only it gets slots. `provoking` slots (a rate-limit rule's burst) are neither paused nor paced.
   */
  lease(target: string, bucket: string, want: number, holder: string, provoking = false): LeaseAnswer {
    const s = this.state(target);
    const now = this.clock();
    const left = s.policy.maxRequests - s.sent;
    if (left <= 0) return { exhausted: `budget.maxRequests (${s.policy.maxRequests}) is spent` };
    if (now >= s.deadline) return { exhausted: `budget.maxSeconds (${s.policy.maxSeconds} s) has run out` };
    const scope = this.scope(s, bucket);
    if (s.holder !== undefined && s.holder !== holder) return { retryAt: now + 100 };
    // Unpaced slots are only a count: a worker gets some ahead, so it need not ask for every request.
    const unpaced = provoking || scope.pacer === undefined;
    const n = Math.max(1, Math.min(unpaced ? Math.max(want, UNPACED_LEASE) : want, left));
    const immediately = () => Array.from({ length: n }, () => now);
    if (provoking) return this.grant(s, scope, immediately());
    const pausedUntil = Math.max(s.pausedUntil, scope.pausedUntil);
    if (pausedUntil > now) return { retryAt: pausedUntil };
    if (scope.pacer === undefined) return { ...this.grant(s, scope, immediately()), unpaced: true };
    const at: number[] = [];
    while (at.length < n) {
      const t = scope.pacer.reserve(now);
      if (t >= s.deadline) break;
      at.push(t);
      if (t > now + LEASE_HORIZON_MS) break;
    }
    if (at.length === 0) return { exhausted: `budget.maxSeconds (${s.policy.maxSeconds} s) has run out` };
    return this.grant(s, scope, at);
  }

  private grant(s: TargetState, scope: Scope, at: number[]): { at: number[]; lastLimitedAt: number } {
    s.sent += at.length;
    const now = this.clock();
    for (const t of at) scope.recent.push(t);
    while (scope.recent.length > 0 && (scope.recent[0] ?? now) < now - 5000) scope.recent.shift();
    return { at, lastLimitedAt: scope.lastLimitedAt };
  }

  /**
   * A request of `bucket` met a limited answer: its scope pauses until the wait the answer asks for has
   * passed (a doubling back-off when it names none), and its pace drops — to 70 % of the one in force, or,
   * where there was none, to half the rate the scope had reached (or to the rate the answer's
   * RateLimit-Policy declares, if lower).
   */
  limited(target: string, signal: LimitSignal, bucket: string, declaredRate?: number): LimitedAnswer {
    const s = this.state(target);
    const scope = this.scope(s, bucket);
    const now = this.clock();
    s.limited++;
    s.reasons[signal.reason] = (s.reasons[signal.reason] ?? 0) + 1;
    // Answers to requests that were in flight together are one event, seen by several requests.
    const sameEvent = now - scope.lastLimitedAt < SAME_EVENT_MS || scope.pausedUntil > now;
    scope.lastLimitedAt = now;
    let wait = signal.waitMs;
    if (wait === undefined && sameEvent) wait = 0; // the pause already set for this event stands
    if (wait === undefined) {
      wait = scope.backoffMs;
      scope.backoffMs = Math.min(MAX_BACKOFF_MS, scope.backoffMs * 2);
    }
    const resumeAt = now + wait + WAIT_MARGIN_MS;
    this.pause(s, now, scope.pausedUntil, resumeAt);
    scope.pausedUntil = Math.max(scope.pausedUntil, resumeAt);
    // Requests no declared per-identity counter covers ('' under key identity or credential) share a scope,
    // but not a counter at the target: a token the suite minted for one identity runs out that identity's
    // quota, not the anonymous one. Their limited answers are waited out; slowing every unrecognised request
    // to one counter's pace would throttle the whole run for one identity.
    const mixed = bucket === '' && scopeKeyed(s);
    if (!sameEvent && !mixed) {
      const reached = scope.recent.filter((t) => t >= now - 5000 && t <= now).length / 5;
      let next = scope.pacer === undefined ? Math.max(0.5, reached / 2) : scope.pacer.perSecond * 0.7;
      if (declaredRate !== undefined) next = Math.min(next, declaredRate * PACE_MARGIN);
      scope.pacer = new Pacer(Math.max(0.2, next), 1);
    }
    return { resumeAt: scope.pausedUntil, affordable: scope.pausedUntil < s.deadline };
  }

  /** Counts a pause from `now` until `until` in the wait figures (the part not already paused). */
  private pause(s: TargetState, now: number, alreadyUntil: number, until: number): void {
    if (until <= alreadyUntil) return;
    s.waitedMs += until - Math.max(now, alreadyUntil);
    s.slowestWaitMs = Math.max(s.slowestWaitMs, until - now);
  }

  /**
   * Exclusive use of the target for `holder` (a rate-limit rule): others get no slot until `release`. The
   * answer says when the holder may start — once slots already handed out have landed and any pause is over.
   */
  exclusive(target: string, holder: string): { startAt: number } | { retryAt: number } {
    const s = this.state(target);
    const now = this.clock();
    if (s.holder !== undefined && s.holder !== holder) return { retryAt: now + 100 };
    s.holder = holder;
    const paused = Math.max(s.pausedUntil, ...[...s.scopes.values()].map((scope) => scope.pausedUntil));
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

  /** Milliseconds left before the run's deadline. */
  remainingMs(target: string): number {
    return this.state(target).deadline - this.clock();
  }

  politeness(): Politeness {
    let requests = 0;
    let limitedAnswers = 0;
    let waitedMs = 0;
    let slowestWaitMs = 0;
    let pacePerSecond: number | undefined;
    const reasons: Record<string, number> = {};
    for (const s of this.targets.values()) {
      requests += s.sent;
      limitedAnswers += s.limited;
      waitedMs += s.waitedMs;
      slowestWaitMs = Math.max(slowestWaitMs, s.slowestWaitMs);
      // The declared pace, and any slower one learned since.
      const d = s.policy.declared;
      const paces = [...s.scopes.values()].map((scope) => scope.pacer?.perSecond);
      if (d !== undefined) paces.push(paceForLimit(d.limit, d.windowSeconds, d.burst).perSecond);
      for (const pace of paces) {
        if (pace !== undefined) pacePerSecond = Math.min(pacePerSecond ?? pace, pace);
      }
      for (const [k, v] of Object.entries(s.reasons)) reasons[k] = (reasons[k] ?? 0) + v;
    }
    return {
      requests,
      limitedAnswers,
      waitedMs: Math.round(waitedMs),
      slowestWaitMs: Math.round(slowestWaitMs),
      ...(pacePerSecond === undefined ? {} : { pacePerSecond: Math.round(pacePerSecond * 100) / 100 }),
      reasons,
    };
  }
}
