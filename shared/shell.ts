/**
 * Words for a POSIX shell (POSIX.1-2017 XCU §2.2.2: inside single quotes every character is literal, so a
 * single quote itself closes the quotes, is escaped with a backslash, and opens them again): the curl replay
 * line (specs/lib/replay.ts) and the mock's `--print-env` (mock/cli/environment.ts).
 */

/** Always in single quotes, a quote inside written as above. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** As it is when it holds only characters no shell treats specially, else quoted (shellQuote). */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : shellQuote(value);
}
