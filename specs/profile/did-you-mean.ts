/**
 * "Did you mean" for a field the profile schema does not know (`/ratelimit is not a known field; did you mean
 * rateLimit?`, issue #40): the known field nearest by edit distance (fastest-levenshtein), compared without
 * case, offered when it is close enough to be a typo — at most a third of the word's letters changed.
 */
import { closest, distance } from 'fastest-levenshtein';

export function didYouMean(unknown: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const lower = unknown.toLowerCase();
  const byLower = new Map(known.map((k) => [k.toLowerCase(), k]));
  const nearest = closest(lower, [...byLower.keys()]);
  const allowed = Math.max(1, Math.floor(unknown.length / 3));
  return distance(lower, nearest) <= allowed ? byLower.get(nearest) : undefined;
}
