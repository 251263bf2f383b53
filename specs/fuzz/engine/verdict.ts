/**
 * How a fuzz rule judges one answer. `unjudged` is for answers that say nothing about the rule — a 429 (or
 * the 403 ban that seed §8 allows after it) where the rule needed another status; the engine counts them.
 */
import type { Outcome } from '../clients/types.ts';
import type { FuzzRequest } from '../request.ts';

export type Verdict =
  | { readonly result: 'pass' }
  | { readonly result: 'fail'; readonly expected: string; readonly actual?: string }
  | { readonly result: 'unjudged'; readonly reason: string };

export type Judge = (request: FuzzRequest, outcome: Outcome) => Verdict;

export const PASS: Verdict = { result: 'pass' };

export function failed(expected: string, actual?: string): Verdict {
  return actual === undefined ? { result: 'fail', expected } : { result: 'fail', expected, actual };
}

/** `status 401`, `no response (ECONNRESET)`. */
export function describeOutcome(outcome: Outcome): string {
  return outcome.kind === 'response' ? `status ${outcome.status}` : `no response (${outcome.error})`;
}
