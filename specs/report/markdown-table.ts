/**
 * GFM tables (GitHub Flavored Markdown §4.10) laid out the way the repository's formatter (biome) lays
 * them out: every column padded to its widest cell, right-aligned columns padded on the left. Generated
 * Markdown then reads well as plain text and survives `npm run format` unchanged.
 */

export type Align = 'left' | 'right';

function width(text: string): number {
  return [...text].length;
}

export function markdownTable(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly Align[] = [],
): string[] {
  const widths = head.map((h, col) => Math.max(3, width(h), ...rows.map((row) => width(row[col] ?? ''))));
  const pad = (text: string, col: number) => {
    const fill = ' '.repeat((widths[col] ?? 0) - width(text));
    return align[col] === 'right' ? fill + text : text + fill;
  };
  const line = (cells: readonly string[]) =>
    `| ${head.map((_, col) => pad(cells[col] ?? '', col)).join(' | ')} |`;
  const rule = `| ${widths.map((w, col) => (align[col] === 'right' ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w))).join(' | ')} |`;
  return [line(head), rule, ...rows.map(line)];
}
