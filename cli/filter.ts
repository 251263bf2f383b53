/**
 * --only / --skip → Playwright's --grep / --grep-invert over the tags every test carries
 * (specs/rules/types.ts: `@rule:<id>` and `@must` / `@should` / `@info`). Rule ids are checked against
 * the catalogue so a typo is a usage error, not a run that silently checks nothing.
 *
 * Accepted selectors: a rule id (`auth.401.challenge`), an id pattern with `*` (`jwt.attack.*`), a level
 * (`@must`, `@should`, `@info`) or any other tag (`@fuzz`).
 */

import { idPattern } from '../specs/rules/id-pattern.ts';
import { UsageError } from './exit-codes.ts';

export interface Selection {
  /** Regex source for --grep, or undefined for "everything". */
  readonly grep?: string;
  /** Regex source for --grep-invert. */
  readonly grepInvert?: string;
  /** Human form for the report: `--only a,b --skip c`. */
  readonly description?: string;
}

const LEVEL_TAGS = new Set(['@must', '@should', '@info']);

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Ids whose edit distance suggests a typo, or that share the first segments. */
function suggestions(id: string, ids: readonly string[]): string[] {
  const head = id.split('.').slice(0, 2).join('.');
  return ids.filter((other) => other.startsWith(head)).slice(0, 3);
}

/** One selector → tag regexes (`@rule:<id>` or the tag itself), each anchored at the end of the tag. */
function tagsFor(flag: string, selector: string, ids: readonly string[]): string[] {
  if (selector.startsWith('@')) {
    if (!/^@[\w:.*-]+$/.test(selector)) throw new UsageError(`${flag}: "${selector}" is not a tag`);
    const tag = LEVEL_TAGS.has(selector.toLowerCase()) ? selector.toLowerCase() : selector;
    return [escapeRegex(tag)];
  }
  if (!/^[\w.*-]+$/.test(selector)) {
    throw new UsageError(
      `${flag}: "${selector}" is not a rule id, an id pattern (auth.401.*) or a tag (@must)`,
    );
  }
  if (selector.includes('*')) {
    const matched = ids.filter(idPattern(selector));
    if (matched.length === 0) {
      throw new UsageError(`${flag}: no rule id matches "${selector}" (gatecheck --list-rules shows them)`);
    }
    return matched.map((id) => escapeRegex(`@rule:${id}`));
  }
  if (!ids.includes(selector)) {
    const near = suggestions(selector, ids);
    throw new UsageError(
      `${flag}: unknown rule id "${selector}"${near.length ? `; did you mean ${near.join(', ')}?` : ''} (gatecheck --list-rules shows them)`,
    );
  }
  return [escapeRegex(`@rule:${selector}`)];
}

/**
 * Playwright matches --grep against "<title path> <tags>" joined by spaces, so a tag ends at a space or at
 * the end: `(?=\s|$)` keeps `@rule:auth.401` from selecting `@rule:auth.401.challenge`.
 */
function regexOf(tags: readonly string[]): string | undefined {
  const unique = [...new Set(tags)];
  return unique.length ? `(?:${unique.join('|')})(?=\\s|$)` : undefined;
}

export function selection(
  only: readonly string[],
  skip: readonly string[],
  ids: readonly string[],
): Selection {
  const grep = regexOf(only.flatMap((s) => tagsFor('--only', s, ids)));
  const grepInvert = regexOf(skip.flatMap((s) => tagsFor('--skip', s, ids)));
  const parts = [
    only.length ? `--only ${only.join(',')}` : '',
    skip.length ? `--skip ${skip.join(',')}` : '',
  ];
  const description = parts.filter(Boolean).join(' ');
  return {
    ...(grep ? { grep } : {}),
    ...(grepInvert ? { grepInvert } : {}),
    ...(description ? { description } : {}),
  };
}
