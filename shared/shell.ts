/**
 * Words for a POSIX shell (POSIX.1-2017 XCU §2.2.2: inside single quotes every character is literal, and a
 * single quote itself is written '\''): the curl replay line (specs/lib/replay.ts) and the mock's
 * `--print-env` (mock/cli/environment.ts).
 */

/** Always quoted: 'it'\''s'. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** As it is when it holds only characters no shell treats specially, else quoted (shellQuote). */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : shellQuote(value);
}
