/**
 * The target's first limited answer in a wave of requests sent at once (seed §8: 429, or 403 where the
 * target blocks; RFC 6585 §4). The requests of a wave reach the target in any order, so the first limited
 * answer in send order need not be the first the target gave. A ban's 403 comes only after the limited answers
 * that led to it, so where the wave holds a 429 it is the target's first refusal, and the one whose
 * Retry-After the run judges; otherwise the first 403.
 */
import type { Exchange } from '../wire/http.ts';

/** The 429 of the wave if it holds one, else its first 403, else undefined. */
export function firstLimited(wave: readonly Exchange[]): Exchange | undefined {
  return wave.find((ex) => ex.status === 429) ?? wave.find((ex) => ex.status === 403);
}
