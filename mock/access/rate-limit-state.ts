/**
 * What the rate limiter knows of one client in one group (mock/access/rate-limit.ts keeps these in a bounded
 * LRU): its window and counts, the over-limit flag and its ban, and what the other algorithms keep
 * (mock/access/rate-limit-algorithms.ts). Counted in mock/access/rate-limit-counts.ts (in this process) or
 * mock/access/rate-limit-shared.ts (a shared store).
 */
import type { Group } from './rate-limit-groups.ts';

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
  /** `client-window`: when the client's window began (mock-clock ms). */
  windowStart?: number;
  /** `moving-window`: the times of the requests allowed in the last window, oldest first. */
  hits?: number[];
  /** `leaky-bucket`: the excess over the rate (requests) and when it was last updated. */
  excess?: number;
  last?: number;
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
