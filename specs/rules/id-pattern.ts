/**
 * Rule id patterns, one reading for every place that takes them (`--only` / `--skip`, waiver files, the causes a
 * skipped check names): a `*` stands for any run of characters (`auth.401.*`, `jwt.attack.*`); without one, the
 * pattern is the id itself.
 */

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** A test of rule ids for `pattern`. */
export function idPattern(pattern: string): (id: string) => boolean {
  if (!pattern.includes('*')) return (id) => id === pattern;
  const re = new RegExp(`^${pattern.split('*').map(escapeRegex).join('.*')}$`);
  return (id) => re.test(id);
}
