/**
 * The mock's one clock. Every time-dependent decision reads it: JWT `exp`/`nbf` (the exchange's `now` is
 * passed to the authenticator), rate-limit windows, bans and the journal's timestamps. It runs from a base
 * (`MockConfig.clock`, `Date.now` by default) shifted by an offset, so tests and developers can move time
 * without sleeping: by configuration (`clock.offsetSeconds`) or through the control API (advance, set,
 * freeze, reset).
 */

export interface MockClock {
  /** Epoch milliseconds as the mock sees them. */
  now(): number;
  /** Moves the clock forward (or back, for a negative value) by `ms`; returns the new reading. */
  advance(ms: number): number;
  /** Makes the clock read `epochMs` now; it keeps running from there unless frozen. */
  set(epochMs: number): number;
  /** Stops the clock at its current reading (true) or lets it run again from that reading (false). */
  freeze(frozen: boolean): number;
  /** Back to the configured offset, running. */
  reset(): void;
  /** What the control API shows. */
  state(): ClockState;
}

export interface ClockState {
  readonly now: number;
  readonly iso: string;
  /** How far the mock's clock is from its base (the real clock unless one was injected). */
  readonly offsetMs: number;
  readonly frozen: boolean;
}

/** Largest offset accepted: ±100 years keeps every reading a valid Date and a safe integer. */
const MAX_OFFSET_MS = 100 * 365.25 * 86_400_000;

export function createClock(base: () => number = Date.now, initialOffsetMs = 0): MockClock {
  checkOffset(initialOffsetMs);
  let offset = initialOffsetMs;
  // While frozen, `now()` returns this reading; undefined when running.
  let frozenAt: number | undefined;

  const now = (): number => frozenAt ?? base() + offset;
  const moveTo = (target: number): number => {
    if (!Number.isFinite(target)) throw new TypeError('clock: the target time must be a finite number');
    const nextOffset = target - base();
    checkOffset(nextOffset);
    offset = nextOffset;
    if (frozenAt !== undefined) frozenAt = target;
    return target;
  };

  return {
    now,
    // The offset moves by `ms` itself: reading the base clock twice (now() + ms, then target - base()) lost
    // the millisecond that passed between the two readings (an hour forward came out as 3,599,999 ms).
    advance: (ms) => {
      if (!Number.isFinite(ms)) throw new TypeError('clock.advance: ms must be a finite number');
      if (frozenAt !== undefined) return moveTo(frozenAt + ms);
      checkOffset(offset + ms);
      offset += ms;
      return now();
    },
    set: (epochMs) => moveTo(epochMs),
    freeze: (frozen) => {
      const reading = now();
      if (frozen) frozenAt = reading;
      else {
        frozenAt = undefined;
        moveTo(reading);
      }
      return reading;
    },
    reset: () => {
      offset = initialOffsetMs;
      frozenAt = undefined;
    },
    // One reading of the base clock: the offset said is the one the reading was made with.
    state: () => {
      const at = base();
      const reading = frozenAt ?? at + offset;
      return {
        now: reading,
        iso: new Date(reading).toISOString(),
        offsetMs: reading - at,
        frozen: frozenAt !== undefined,
      };
    },
  };
}

function checkOffset(ms: number): void {
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_OFFSET_MS) {
    throw new RangeError(`clock: an offset of ${ms} ms is out of range (at most 100 years either way)`);
  }
}
