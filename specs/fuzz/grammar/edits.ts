/**
 * Near misses and legal respellings of one production of a credential, at every position (issue #37:
 * "probes from the grammar, not from examples"). A production is a run of characters from a grammar —
 * `auth-scheme` (RFC 9110 §11.1: a token), `token68` (§11.2), `user-pass` (RFC 7617 §2) — and a server can
 * be wrong at any of its positions; so each edit is applied at each one: before every character and after
 * the last (insert), and at every character (delete, duplicate, substitute, letter case). The edits are plain
 * data: the checks send them, tests/fuzz/grammar-edits.test.ts shows every position is reached.
 */

export type EditOp = 'insert' | 'delete' | 'duplicate' | 'substitute' | 'case';

export interface GrammarEdit {
  /** The production edited, for messages and the positions table: `auth-scheme`, `token68 (Basic)`. */
  readonly production: string;
  readonly op: EditOp;
  /** Insert: the gap before character `position` (the text's length: after the last); else the character. */
  readonly position: number;
  /** The character inserted or put in place (insert, substitute). */
  readonly char?: string;
  /** The production's text after the edit. */
  readonly text: string;
  /** What changed, where — never the text itself (it may be a secret). */
  readonly label: string;
}

export interface EditPlan {
  /** Characters inserted at every gap (each its own edit). */
  readonly insert?: readonly string[];
  readonly delete?: boolean;
  readonly duplicate?: boolean;
  /** The replacement of a character at every position (undefined: no substitution there). */
  readonly substitute?: (c: string) => string | undefined;
  /** The letter case of every cased character inverted, one position at a time. */
  readonly letterCase?: boolean;
}

/** `"-"` → `"-"`; a space or a control character by its code, so a label stays readable. */
function shown(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  return code <= 0x20 || code === 0x7f ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `"${c}"`;
}

/**
 * Every edit of `text` the plan asks for, at every position. Edits that give the text back unchanged (a
 * letter without case, a substitute equal to the original) are left out; two edits giving the same text are
 * both kept — they are different positions, and the positions table counts them.
 */
export function editsAtEveryPosition(production: string, text: string, plan: EditPlan): GrammarEdit[] {
  const chars = [...text];
  const out: GrammarEdit[] = [];
  const at = (i: number, replacement: string) =>
    [...chars.slice(0, i), replacement, ...chars.slice(i + 1)].join('');
  for (const char of plan.insert ?? []) {
    for (let i = 0; i <= chars.length; i++) {
      const edited = [...chars.slice(0, i), char, ...chars.slice(i)].join('');
      out.push({
        production,
        op: 'insert',
        position: i,
        char,
        text: edited,
        label: `${shown(char)} inserted at ${i} of ${production}`,
      });
    }
  }
  chars.forEach((c, i) => {
    if (plan.delete)
      out.push({
        production,
        op: 'delete',
        position: i,
        text: at(i, ''),
        label: `character ${i} of ${production} deleted`,
      });
    if (plan.duplicate)
      out.push({
        production,
        op: 'duplicate',
        position: i,
        text: at(i, c + c),
        label: `character ${i} of ${production} doubled`,
      });
    const other = plan.substitute?.(c);
    if (other !== undefined && other !== c)
      out.push({
        production,
        op: 'substitute',
        position: i,
        char: other,
        text: at(i, other),
        label: `character ${i} of ${production} replaced by ${shown(other)}`,
      });
    const swapped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
    if (plan.letterCase && swapped !== c)
      out.push({
        production,
        op: 'case',
        position: i,
        text: at(i, swapped),
        label: `character ${i} of ${production} in the other letter case`,
      });
  });
  return out;
}

/** The positions an edit list reaches, per production and operation: `{ "auth-scheme": { insert: [0, 1, …] } }`. */
export function positionsReached(
  edits: readonly GrammarEdit[],
): Record<string, Partial<Record<EditOp, number[]>>> {
  const out: Record<string, Partial<Record<EditOp, number[]>>> = {};
  for (const e of edits) {
    const ops = out[e.production] ?? {};
    out[e.production] = ops;
    const list = ops[e.op] ?? [];
    ops[e.op] = list;
    if (!list.includes(e.position)) list.push(e.position);
  }
  for (const ops of Object.values(out)) for (const list of Object.values(ops)) list?.sort((a, b) => a - b);
  return out;
}
