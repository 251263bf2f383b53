/**
 * Recognises answers that are rate limiting rather than a verdict (seed §8: over the limit → 429, and "a
 * request blocked by rate limiting may also be answered with 403"). Such an answer says nothing about an
 * Authorization rule. A 403 counts as a rate-limit block when it carries Retry-After, or once this worker
 * has seen a 429 from the target — a ban outlives the property that provoked it.
 */
import type { Outcome } from '../clients/types.ts';

let seen429 = false;

/** Records that the target rate-limited this worker (a 429 seen). */
export function noteOutcome(outcome: Outcome): void {
  if (outcome.kind === 'response' && outcome.status === 429) seen429 = true;
}

/** Why `outcome` is rate limiting, or undefined when it is an ordinary answer. */
export function rateLimitReason(outcome: Outcome): string | undefined {
  if (outcome.kind !== 'response') return undefined;
  if (outcome.status === 429) return 'rate limited (429)';
  if (outcome.status === 503 && outcome.headers['retry-after'] !== undefined)
    return '503 with Retry-After (come back later)';
  if (outcome.status === 403 && outcome.headers['retry-after'] !== undefined)
    return '403 with Retry-After (seed §8 block)';
  if (outcome.status === 403 && seen429) return '403 after a 429 (seed §8 ban)';
  return undefined;
}

/** Forgets the 429s seen (for tests that start from a clean target). */
export function resetRateLimitMemory(): void {
  seen429 = false;
}
