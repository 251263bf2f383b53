/**
 * Pacing by the generic cell rate algorithm (GCRA, ITU-T I.371; the "virtual scheduling" form): requests
 * go out at most `perSecond` on average, with up to `burst` of them back to back. Pure and clock-free — the
 * caller passes the time — so its schedule can be checked exactly.
 */
export class Pacer {
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
  const back2back = Math.max(1, Math.floor(BURST_SHARE * Math.min(limit, burst ?? limit)));
  // A span of one window holds back2back + rate × window; a span of B × window / limit, back2back + rate ×
  // that span. Both within 95 % of what they allow (which the at-least-one back2back decides for small ones).
  const within = (allowed: number) => (CEILING * allowed - back2back) / allowed;
  const share = Math.min(PACE_MARGIN, within(limit), burst === undefined ? 1 : within(burst));
  return new Pacer((Math.max(0.05, share) * limit) / windowSeconds, back2back);
}
