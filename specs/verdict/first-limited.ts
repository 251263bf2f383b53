/**
 * The target's first limited answer in a wave of requests sent at once (seed §8: 429, or 403 where the
 * target blocks; RFC 6585 §4). The requests of a wave reach the target in any order, so the first limited
 * answer in send order need not be the first the target gave. A ban's 403 comes only after the limited answers
 * that led to it, so where the wave holds a 429 it is the target's first refusal, and the one whose
 * Retry-After the run judges; otherwise the first 403.
 */
import type { Exchange } from '../wire/http.ts';

/** A limited answer's statuses, the one a limit answers first before the one a ban or block may answer. */
export const LIMITED_STATUSES: readonly number[] = [429, 403];

/** The 429 of the wave if it holds one, else its first 403, else undefined. */
export function firstLimited(wave: readonly Exchange[]): Exchange | undefined {
  for (const status of LIMITED_STATUSES) {
    const found = wave.find((ex) => ex.status === status);
    if (found) return found;
  }
  return undefined;
}
