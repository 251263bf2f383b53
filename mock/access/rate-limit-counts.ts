/**
 * What this process knows of one client in one group (mock/access/rate-limit.ts keeps these in a bounded LRU),
 * and the in-process counting: fixed windows on the mock's clock, a burst window that divides the window,
 * strikes towards a ban (docs/mock.md "Rate limits"). Synchronous: a request counted in memory never waits on
 * a promise or a timer. With a shared store the counts live in the store instead and this state only
 * remembers the window, the over-limit flag and the ban.
 */

import type { Group } from './rate-limit-groups.ts';

export type Verdict =
  /** `resetMs`: until the current window ends. */
  | { readonly kind: 'allowed'; readonly remaining: number; readonly resetMs: number }
  /** `by`: the counter that refused (the group, or its burst); `resetMs`: until that counter's window ends. */
  | { readonly kind: 'limited'; readonly resetMs: number; readonly by: Group }
  /** `retryAfterMs`: until the ban ends, and never before the window that is over its limit ends. */
  | { readonly kind: 'banned'; readonly resetMs: number; readonly retryAfterMs: number }
  /** The shared store failed and nothing answered in its place (`onUnavailable: refuse`). */
  | { readonly kind: 'unavailable'; readonly retryAfterMs: number };

export interface ClientState {
  readonly group: Group;
  readonly key: string;
  /** Window index of the counts this client is using. */
  window: number;
  /** Burst window index (0 when the group has no burst). */
  burstWindow: number;
  /** The count went over the limit in `window` (the pre-credential check of an address reads this). */
  over: boolean;
  /** Mock-clock ms; 0 when not banned. */
  bannedUntil: number;
  /** In-process counting only: requests counted in `window`, in `burstWindow`, limited answers in `window`. */
  count: number;
  burstCount: number;
  strikes: number;
}

export function newClientState(group: Group, key: string, window: number): ClientState {
  return {
    group,
    key,
    window,
    burstWindow: 0,
    over: false,
    bannedUntil: 0,
    count: 0,
    burstCount: 0,
    strikes: 0,
  };
}

/** A new window: the counts start again (a ban carries over; it ends by its own clock). */
export function enterWindow(state: ClientState, window: number): void {
  state.window = window;
  state.over = false;
  state.count = 0;
  state.strikes = 0;
}

/** When a ban earned now ends: never before the limiter's own reset (a shorter ban would end in 429s). */
export function banEnd(group: Group, limited: { readonly resetMs: number }, now: number): number {
  return now + Math.max(group.banMs, limited.resetMs);
}

/** The ban was set to end no earlier than the window that caused it, so its end is the answer. */
export function bannedVerdict(state: ClientState, now: number, windowEnd: number): Verdict {
  return { kind: 'banned', resetMs: windowEnd - now, retryAfterMs: state.bannedUntil - now };
}

/**
 * Counts one request of a client whose state is already in the current window (the same rules as the shared
 * store's counters: a request over the limit is counted too; one refused by the burst counter is given back
 * to the window, so a client told to wait out the burst finds room in the window; the limited answer past
 * `banAfter` bans for `banMs`, never less than the rest of the window that limited it).
 */
export function countInProcess(state: ClientState, group: Group, now: number): Verdict {
  const windowEnd = (state.window + 1) * group.windowMs;
  if (state.bannedUntil > now) return bannedVerdict(state, now, windowEnd);
  state.count += 1;
  let limited: { resetMs: number; by: Group } | undefined;
  if (state.count > group.limit) {
    state.over = true;
    limited = { resetMs: windowEnd - now, by: group };
  } else if (group.burst !== undefined) {
    const burst = group.burst;
    const burstWindow = Math.floor(now / burst.windowMs);
    if (state.burstWindow !== burstWindow) {
      state.burstWindow = burstWindow;
      state.burstCount = 0;
    }
    state.burstCount += 1;
    if (state.burstCount > burst.limit) {
      state.count -= 1;
      limited = { resetMs: (burstWindow + 1) * burst.windowMs - now, by: burst };
    }
  }
  if (limited === undefined)
    return { kind: 'allowed', remaining: group.limit - state.count, resetMs: windowEnd - now };
  if (group.banMs > 0) {
    state.strikes += 1;
    if (group.banAfter === 0 || state.strikes > group.banAfter) {
      state.bannedUntil = banEnd(group, limited, now);
      return bannedVerdict(state, now, windowEnd);
    }
  }
  return { kind: 'limited', ...limited };
}
