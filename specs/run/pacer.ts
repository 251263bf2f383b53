/**
 * Pacing by the generic cell rate algorithm (GCRA, ITU-T I.371; the "virtual scheduling" form): requests
 * go out at most `perSecond` on average, with up to `burst` of them back to back. Pure and clock-free — the
 * caller passes the time — so its schedule can be checked exactly.
 */
export class Pacer {
  /** Theoretical arrival time of the next request, in ms. */
  private tat = Number.NEGATIVE_INFINITY;
  private readonly intervalMs: number;
  private readonly toleranceMs: number;

  constructor(
    readonly perSecond: number,
    readonly burst: number,
  ) {
    if (!(perSecond > 0) || !(burst >= 1)) throw new TypeError('Pacer needs perSecond > 0 and burst >= 1');
    this.intervalMs = 1000 / perSecond;
    this.toleranceMs = (Math.floor(burst) - 1) * this.intervalMs;
  }

  /** Reserves the next slot at or after `now` and returns its time (ms). */
  reserve(now: number): number {
    const at = Math.max(now, this.tat - this.toleranceMs);
    this.tat = Math.max(this.tat, at) + this.intervalMs;
    return at;
  }
}

/** Share of a declared limit the suite uses: it paces below the limit, never at it. */
export const PACE_MARGIN = 0.85;

/**
 * The pace that keeps a client under `limit` requests per `windowSeconds` whatever window the target counts
 * in: fixed, sliding or a token bucket. In any span of one window a GCRA client sends at most
 * burst + rate × window requests, so rate = 85 % of the limit and burst ≤ 15 % of it keep that under the
 * limit; a declared `burst` (the target's own) lowers it further.
 */
export function paceForLimit(limit: number, windowSeconds: number, burst?: number): Pacer {
  const perSecond = (PACE_MARGIN * limit) / windowSeconds;
  const room = Math.floor((1 - PACE_MARGIN) * limit);
  const back2back = Math.max(1, Math.min(room, burst === undefined ? room : Math.floor(PACE_MARGIN * burst)));
  return new Pacer(perSecond, back2back);
}
