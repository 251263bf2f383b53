/**
 * Text from a statement or a report, made safe to print: C0 and C1 control characters, DEL, the line and
 * paragraph separators and the bidirectional overrides (Unicode TR #9; the "Trojan Source" reorderings) are
 * written as \uXXXX, so a signed string can neither move the cursor, clear the screen, set the terminal's
 * title, start a line that looks like gatecheck's own, nor reorder what is shown.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this RegExp's job.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
