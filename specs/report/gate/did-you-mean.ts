/** "did you mean …?" for a rule id the catalogue does not know: the closest ids by edit distance. */

import { distance } from 'fastest-levenshtein';

export function closestIds(id: string, ids: readonly string[], most = 3): string[] {
  const head = id.split('.').slice(0, 2).join('.');
  const limit = Math.max(3, Math.floor(id.length / 3));
  return (
    ids
      .map((other) => ({ other, d: distance(id, other) }))
      // Close by spelling, or the same first two segments (auth.401.*) as a last resort.
      .filter(({ other, d }) => d <= limit || other.startsWith(`${head}.`))
      .sort((a, b) => a.d - b.d || a.other.localeCompare(b.other))
      .slice(0, most)
      .map(({ other }) => other)
  );
}

export function didYouMean(id: string, ids: readonly string[]): string {
  const near = closestIds(id, ids);
  return near.length ? `; did you mean ${near.join(', ')}?` : '';
}
