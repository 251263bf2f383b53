/**
 * The in-process counting of what this process knows of one client in one group (mock/access/rate-limit-state.ts):
 * fixed windows on the mock's clock, a burst window that divides the window,
 * strikes towards a ban (docs/mock.md "Rate limits"). Synchronous: a request counted in memory never waits on
 * a promise or a timer. With a shared store the counts live in the store instead and this state only
 * remembers the window, the over-limit flag and the ban.
 */

import {
  type Counted,
  clientWindow,
  leakyBucket,
  movingWindow,
  windowEndOf,
} from './rate-limit-algorithms.ts';
import type { Group } from './rate-limit-groups.ts';
import type { ClientState } from './rate-limit-state.ts';

/** Where one limit of a route stands after a request: what its answer's rate-limit fields say of it. */
export interface PolicyStanding {
  readonly group: Group;
  readonly remaining: number;
  readonly resetMs: number;
}

export type Verdict =
  /**
   * `resetMs`: until the current window ends; `delayMs`: a leaky bucket without `nodelay` delays the answer;
   * `policies`: with `alongside` groups, every limit that counted the request, in order (the route's first).
   */
  | {
      readonly kind: 'allowed';
      readonly remaining: number;
      readonly resetMs: number;
      readonly delayMs?: number;
      readonly policies?: readonly PolicyStanding[];
    }
  /**
   * `by`: the counter that refused (the group, or its burst); `resetMs`: until that counter's window ends;
   * `policies`: with `alongside` groups, the limits that counted the request, the refusing one last (at 0).
   */
  | {
      readonly kind: 'limited';
      readonly resetMs: number;
      readonly by: Group;
      readonly policies?: readonly PolicyStanding[];
    }
  /** `retryAfterMs`: until the ban ends, and never before the window that is over its limit ends. */
  | { readonly kind: 'banned'; readonly resetMs: number; readonly retryAfterMs: number }
  /** The shared store failed and nothing answered in its place (`onUnavailable: refuse`). */
  | { readonly kind: 'unavailable'; readonly retryAfterMs: number };

export type { ClientState } from './rate-limit-state.ts';
export { enterWindow, newClientState } from './rate-limit-state.ts';

/** When a ban earned now ends: never before the limiter's own reset (a shorter ban would end in 429s). */
export function banEnd(group: Group, limited: { readonly resetMs: number }, now: number): number {
  return now + Math.max(group.banMs, limited.resetMs);
}

/** The ban was set to end no earlier than the window that caused it, so its end is the answer. */
export function bannedVerdict(state: ClientState, now: number, windowEnd: number): Verdict {
  return { kind: 'banned', resetMs: windowEnd - now, retryAfterMs: state.bannedUntil - now };
}

/**
 * Counts one request of a client whose state is already in the current window, by the group's algorithm
 * (fixed windows as the shared store's counters count: a request over the limit is counted too; one refused
 * by the burst counter is given back to the window, so a client told to wait out the burst finds room in the
 * window; the others: mock/access/rate-limit-algorithms.ts). The limited answer past `banAfter` bans for
 * `banMs`, never less than the rest of the window that limited it — @fastify/rate-limit's `ban`: 403 until its
 * window ends.
 */
export function countInProcess(state: ClientState, group: Group, now: number): Verdict {
  if (state.bannedUntil > now) return bannedVerdict(state, now, windowEndOf(state, group, now));
  const counted = count(state, group, now);
  if (counted.kind === 'allowed') return counted;
  const limited = counted;
  if (group.banMs > 0) {
    state.strikes += 1;
    if (group.banAfter === 0 || state.strikes > group.banAfter) {
      state.bannedUntil = banEnd(group, limited, now);
      return bannedVerdict(state, now, windowEndOf(state, group, now));
    }
  }
  return limited;
}

function count(state: ClientState, group: Group, now: number): Counted {
  switch (group.algorithm) {
    case 'client-window':
      return clientWindow(state, group, now);
    case 'moving-window':
      return movingWindow(state, group, now);
    case 'leaky-bucket':
      return leakyBucket(state, group, now);
    default:
      return fixedWindow(state, group, now);
  }
}

/** The clock-aligned fixed window, with its burst window (the counting of the mock before #28, unchanged). */
function fixedWindow(state: ClientState, group: Group, now: number): Counted {
  const windowEnd = (state.window + 1) * group.windowMs;
  state.count += 1;
  if (state.count > group.limit) {
    state.over = true;
    return { kind: 'limited', resetMs: windowEnd - now, by: group };
  }
  if (group.burst !== undefined) {
    const burst = group.burst;
    const burstWindow = Math.floor(now / burst.windowMs);
    if (state.burstWindow !== burstWindow) {
      state.burstWindow = burstWindow;
      state.burstCount = 0;
    }
    state.burstCount += 1;
    if (state.burstCount > burst.limit) {
      state.count -= 1;
      return { kind: 'limited', resetMs: (burstWindow + 1) * burst.windowMs - now, by: burst };
    }
  }
  return { kind: 'allowed', remaining: group.limit - state.count, resetMs: windowEnd - now };
}
