/**
 * Pacing by the generic cell rate algorithm (GCRA, ITU-T I.371; the "virtual scheduling" form): requests
 * go out at most `perSecond` on average, with up to `burst` of them back to back. Pure and clock-free — the
 * caller passes the time — so its schedule can be checked exactly.
 */
export class Pacer implements Pace {
  /** Theoretical arrival time of the next request, in ms. */
  private tat = Number.NEGATIVE_INFINITY;
  private intervalMs: number;
  private toleranceMs: number;

  constructor(
    private rate: number,
    readonly burst: number,
  ) {
    if (!(rate > 0) || !(burst >= 1)) throw new TypeError('Pacer needs perSecond > 0 and burst >= 1');
    this.intervalMs = 1000 / rate;
    this.toleranceMs = (Math.floor(burst) - 1) * this.intervalMs;
  }

  get perSecond(): number {
    return this.rate;
  }

  /** A new rate from now on; the schedule already reserved stands (no burst is freed by the change). */
  setRate(perSecond: number): void {
    if (!(perSecond > 0)) throw new TypeError('Pacer needs perSecond > 0');
    this.rate = perSecond;
    this.intervalMs = 1000 / perSecond;
    this.toleranceMs = (Math.floor(this.burst) - 1) * this.intervalMs;
  }

  /** The earliest slot at or after `now` this pacer allows, without reserving it. */
  earliest(now: number): number {
    return Math.max(now, this.tat - this.toleranceMs);
  }

  /** Reserves the slot at `at` (not before `earliest`): several pacers can agree on one time. */
  take(at: number): void {
    this.tat = Math.max(this.tat, at) + this.intervalMs;
  }

  /** Reserves the next slot at or after `now` and returns its time (ms). */
  reserve(now: number): number {
    const at = this.earliest(now);
    this.take(at);
    return at;
  }

  /** From the first slot to the last of `requests` from a fresh start (ms): `burst` at once, then one per interval. */
  durationMs(requests: number): number {
    return Math.max(0, Math.ceil(requests) - Math.floor(this.burst)) * this.intervalMs;
  }
}

/** What a counter's pacing offers the scheduler: a GCRA (Pacer) or a window log (WindowPacer). */
export interface Pace {
  readonly perSecond: number;
  /** From the first slot to the last of `requests` at this pace, from a fresh start (ms): what an estimate reads. */
  durationMs(requests: number): number;
  earliest(now: number): number;
  take(at: number): void;
  setRate(perSecond: number): void;
}

/**
 * Pacing as a limit of `limit` requests per `windowMs` counts, for a target that takes its whole limit back to
 * back (a fixed window, a moving one, a window from the client's first request, a token bucket of the limit's
 * size): at most `most` slots in any span of `spanMs`, the span a little longer than the window (what the
 * target's clock and the way there may add) and `most` a little below the limit. A counter that sends fewer
 * than `most` requests in a window never waits — where a GCRA of the same rate holds every request after the
 * first few to 1/rate apart — and a busy one goes at most ÷ span. Slots are handed out in time order.
 */
export class WindowPacer implements Pace {
  /** Slots taken, oldest first: only the last `most` matter. */
  private readonly taken: number[] = [];

  constructor(
    private most: number,
    private readonly spanMs: number,
  ) {
    if (!(most >= 1) || !(spanMs > 0)) throw new TypeError('WindowPacer needs most >= 1 and spanMs > 0');
  }

  get perSecond(): number {
    return (this.most * 1000) / this.spanMs;
  }

  /** A new rate from now on: fewer slots per span (never below one). */
  setRate(perSecond: number): void {
    if (!(perSecond > 0)) throw new TypeError('WindowPacer needs perSecond > 0');
    this.most = Math.max(1, Math.floor((perSecond * this.spanMs) / 1000));
    while (this.taken.length > this.most) this.taken.shift();
  }

  /** The earliest slot at or after `now` and after every slot taken, with fewer than `most` in its span. */
  earliest(now: number): number {
    const last = this.taken.at(-1) ?? Number.NEGATIVE_INFINITY;
    const oldest = this.taken.length < this.most ? Number.NEGATIVE_INFINITY : (this.taken[0] as number);
    return Math.max(now, last, oldest + this.spanMs);
  }

  take(at: number): void {
    this.taken.push(Math.max(at, this.taken.at(-1) ?? at));
    while (this.taken.length > this.most) this.taken.shift();
  }

  /** `most` at once, then `most` more a span later, and so on: the last of `requests` goes after this long (ms). */
  durationMs(requests: number): number {
    return Math.max(0, Math.ceil(Math.ceil(requests) / this.most) - 1) * this.spanMs;
  }

  reserve(now: number): number {
    const at = this.earliest(now);
    this.take(at);
    return at;
  }
}

/** Share of a declared limit's rate the suite paces at. */
export const PACE_MARGIN = 0.9;
/** Share of a declared limit (or burst) the suite sends back to back. */
export const BURST_SHARE = 0.05;
/** Most of a declared limit (or burst) any span of its window may hold: the rest absorbs jitter. */
const CEILING = PACE_MARGIN + BURST_SHARE;

/**
 * The pace that keeps a client under `limit` requests per `windowSeconds` whatever the target counts in: a
 * fixed window, a sliding one, or a token bucket. In any span of T seconds a GCRA client sends at most
 * back2back + rate × T requests: with rate = 90 % of the limit and back2back ≤ 5 % of it, a span of one
 * window holds at most 95 % of the limit — the rest absorbs the jitter between sending and arriving. A
 * declared `burst` B (a token bucket's size, or "B per the time the limit earns B", as gateways with a
 * short second window count it) is kept the same way: back2back ≤ 5 % of B (at least 1).
 */
export function paceForLimit(limit: number, windowSeconds: number, burst?: number): Pacer {
  return gcraForLimit(limit, windowSeconds, burst);
}

/**
 * Whether a declared limit says its target takes the whole limit back to back: its key declared and no
 * `burst` (docs/profile.md: `burst` is "most requests the target takes back to back, when fewer than limit").
 * A key not declared leaves the limiter unknown (a leaky bucket takes a few back to back only).
 */
export function takesWholeLimit(d: { readonly key?: string; readonly burst?: number }): boolean {
  return d.key !== undefined && d.burst === undefined;
}

/** Most requests the suite sends back to back under a declared limit (the key model allows a counter as many). */
export function backToBackOf(d: {
  readonly limit: number;
  readonly key?: string;
  readonly burst?: number;
}): number {
  if (takesWholeLimit(d)) return d.limit;
  return d.burst ?? Math.max(1, Math.floor(BURST_SHARE * d.limit));
}

/** Of a window, what a window log adds to its span: the target's clock and the way there (at least WINDOW_SLACK_MS). */
const WINDOW_SLACK_SHARE = 0.025;
const WINDOW_SLACK_MS = 100;

/**
 * The pace for a limit whose target takes the whole limit back to back — the profile says so by declaring
 * its key and no `burst` (docs/profile.md: `burst`, "most requests the target takes back to back, when fewer
 * than limit"): a window log of 95 % of the limit (one less, for a small one) in a span 2.5 % longer than the
 * window. Its rate is about the GCRA's (90 % of the limit's), but a counter with fewer requests than that in
 * a window is never held back. A declared burst, or a key not declared (the limiter not known: a leaky bucket
 * with a small burst takes a few back to back only), keeps the GCRA.
 */
export function paceForDeclared(
  limit: number,
  windowSeconds: number,
  options: { readonly burst?: number; readonly wholeLimit: boolean },
): Pace {
  const gcra = gcraForLimit(limit, windowSeconds, options.burst);
  if (options.burst !== undefined || !options.wholeLimit) return gcra;
  const most = Math.max(1, Math.min(limit - 1, Math.floor(CEILING * limit)));
  const windowMs = windowSeconds * 1000;
  const log = new WindowPacer(most, windowMs + Math.max(WINDOW_SLACK_MS, WINDOW_SLACK_SHARE * windowMs));
  // A tiny limit or a short window (3 per 0.1 s: one request less and 100 ms more weigh a lot) would go much
  // slower than the GCRA over a run: the GCRA then.
  return log.perSecond >= WINDOW_PACE_SHARE * gcra.perSecond ? log : gcra;
}

/** Least share of the GCRA's rate a window log must keep to be chosen. */
const WINDOW_PACE_SHARE = 0.95;

function gcraForLimit(limit: number, windowSeconds: number, burst?: number): Pacer {
  const back2back = Math.max(1, Math.floor(BURST_SHARE * Math.min(limit, burst ?? limit)));
  // A span of one window holds back2back + rate × window; a span of B × window / limit, back2back + rate ×
  // that span. Both within 95 % of what they allow (which the at-least-one back2back decides for small ones).
  const within = (allowed: number) => (CEILING * allowed - back2back) / allowed;
  const share = Math.min(PACE_MARGIN, within(limit), burst === undefined ? 1 : within(burst));
  return new Pacer((Math.max(0.05, share) * limit) / windowSeconds, back2back);
}
