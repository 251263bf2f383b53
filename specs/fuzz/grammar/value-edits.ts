/**
 * Near misses inside a credential's value, one edit per position (issue #37: every position of `user-pass`, a
 * key, a token — of a JWT every position its grammar tells apart, jwtPositions), each of which must be refused:
 *
 *   user-pass = user-id ":" password ; user-id excludes ":", neither holds a CTL          RFC 7617 §2
 *   b64token  = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="                 RFC 6750 §2.1
 *   token68   = the same characters (a key sent as `<word> <key>`)                          RFC 9110 §11.2
 *   JWS compact = base64url "." base64url "." base64url                                     RFC 7515 §7.1
 *
 * A value is compared whole (a password, a key, a signed token): no edit of one is a legal respelling. Sent
 * at every position with every operation, a JWT alone would be thousands of requests; so the operation
 * rotates along the value — insert before character 0, delete character 1, double character 2, replace
 * character 3, insert before character 4, … and after the last character an insertion — and the character
 * put in rotates through the production's classes (inside its alphabet, inside the carrier's alphabet only,
 * outside both, its separator). Every position is reached once, every operation and class on any value of
 * eight characters or more. Around the `user-pass` separator every operation is sent (rotatingEdits does not
 * guarantee which one lands there).
 */
import { type EditOp, editsAtEveryPosition, type GrammarEdit } from './edits.ts';

export const ROTATION: readonly EditOp[] = ['insert', 'delete', 'duplicate', 'substitute'];

/** The characters one production's edits put in, by class; a substitute returns undefined to skip a class. */
export interface EditClasses {
  readonly insert: readonly string[];
  readonly substitute: readonly ((c: string) => string | undefined)[];
}

/** `"-"` → `"-"`; a control character by its code (labels stay readable, never the value). */
function shown(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  return code <= 0x20 || code === 0x7f ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `"${c}"`;
}

/**
 * One edit at every position of `text`: the operation rotates (ROTATION), the character inserted or put in
 * rotates through `classesAt` (the classes, or the classes at a position); after the last character, an insertion. A substitute equal to the character
 * (or undefined) gives way to the next class. `text.length + 1` edits, or one at each position of `only`.
 */
export function rotatingEdits(
  production: string,
  text: string,
  classesAt: EditClasses | ((position: number) => EditClasses),
  only?: ReadonlySet<number>,
): GrammarEdit[] {
  const chars = [...text];
  const out: GrammarEdit[] = [];
  let inserts = 0;
  let substitutes = 0;
  for (let i = 0; i <= chars.length; i++) {
    if (only !== undefined && !only.has(i)) continue;
    const op: EditOp = i === chars.length ? 'insert' : (ROTATION[i % ROTATION.length] as EditOp);
    const c = chars[i] ?? '';
    const at = (replacement: string) => [...chars.slice(0, i), replacement, ...chars.slice(i + 1)].join('');
    const classes = typeof classesAt === 'function' ? classesAt(i) : classesAt;
    if (op === 'insert') {
      const char = classes.insert[inserts++ % classes.insert.length] as string;
      out.push({
        production,
        op,
        position: i,
        char,
        text: [...chars.slice(0, i), char, ...chars.slice(i)].join(''),
        label: `${shown(char)} inserted at ${i} of ${production}`,
      });
    } else if (op === 'delete') {
      out.push({
        production,
        op,
        position: i,
        text: at(''),
        label: `character ${i} of ${production} deleted`,
      });
    } else if (op === 'duplicate') {
      out.push({
        production,
        op,
        position: i,
        text: at(c + c),
        label: `character ${i} of ${production} doubled`,
      });
    } else {
      let char: string | undefined;
      for (let k = 0; k < classes.substitute.length && (char === undefined || char === c); k++)
        char = classes.substitute[substitutes++ % classes.substitute.length]?.(c);
      if (char === undefined || char === c) char = c === 'x' ? 'y' : 'x';
      out.push({
        production,
        op,
        position: i,
        char,
        text: at(char),
        label: `character ${i} of ${production} replaced by ${shown(char)}`,
      });
    }
  }
  return out;
}

/** The next letter in the same case (`z` → `a`), the next digit; `x` for the rest. */
export function nextLetter(c: string): string {
  if (/[a-y]/i.test(c) || /[0-8]/.test(c)) return String.fromCharCode(c.charCodeAt(0) + 1);
  if (c === 'z' || c === 'Z') return String.fromCharCode(c.charCodeAt(0) - 25);
  if (c === '9') return '0';
  return c === 'x' ? 'y' : 'x';
}

/** A letter in the other case; undefined for a character without case. */
export function otherCase(c: string): string | undefined {
  const swapped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
  return swapped === c ? undefined : swapped;
}

/** RFC 5234 B.1 CTL, here DEL: outside user-id and password (RFC 7617 §2 "MUST NOT contain any control characters"). */
export const DEL = '\x7f';

/**
 * `user-pass` classes (RFC 7617 §2). Inside: "%" and "_" (any character but ":" and a CTL may stand in a
 * user-id; these two are the ones a lookup can take for wildcards), the next letter. Outside: DEL. The separator
 * ":" itself — in the user-id it moves where the user-id ends, in the password it is another password.
 * A letter's case is a near miss in the password only: a user-id may be matched case-insensitively (RFC 7617
 * §2.1 names RFC 7613's profiles, whose UsernameCaseMapped maps case), a password may not (OpaqueString
 * keeps it).
 */
function userPassClasses(userIdLength: number): (position: number) => EditClasses {
  return (position) => ({
    insert: ['%', ':', DEL, '_'],
    substitute:
      position > userIdLength
        ? [otherCase, () => '_', () => DEL, () => ':', nextLetter]
        : [nextLetter, () => '_', () => DEL, () => ':'],
  });
}

/**
 * The user-pass near misses of one identity: one rotating edit at every position of `user-id ":" password`,
 * and every operation around the separator — ":" deleted, doubled, replaced by ";"; "x" and ":" inserted before
 * and after it; the user-id's last character replaced by the next letter and deleted; the password's first
 * character in the other case and deleted. Edits giving back a user-pass in `valid` (this identity's or
 * another identity's: that is a valid credential, not a near miss) are left out, and so are repeats.
 */
export function userPassNearMisses(
  userId: string,
  password: string,
  valid: readonly string[] = [],
): GrammarEdit[] {
  const production = 'user-pass';
  const text = `${userId}:${password}`;
  const sep = [...userId].length;
  const rotating = rotatingEdits(production, text, userPassClasses(sep));
  const around: GrammarEdit[] = [
    ...editsAtEveryPosition(production, text, {
      delete: true,
      duplicate: true,
      substitute: () => ';',
    }).filter((e) => e.position === sep),
    ...editsAtEveryPosition(production, text, { insert: ['x', ':'] }).filter(
      (e) => e.position === sep || e.position === sep + 1,
    ),
    ...editsAtEveryPosition(production, text, { delete: true, substitute: nextLetter }).filter(
      (e) => e.position === sep - 1,
    ),
    ...editsAtEveryPosition(production, text, { delete: true, substitute: otherCase }).filter(
      (e) => e.position === sep + 1,
    ),
  ];
  const seen = new Set([text, ...valid]);
  return [...rotating, ...around].filter((e) => {
    if (seen.has(e.text)) return false;
    seen.add(e.text);
    return true;
  });
}

/** True when the edited user-pass is still well formed (a ":" and no CTL): a wrong credential, answered 401. */
export function userPassWellFormed(text: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: RFC 5234 B.1 CTL is what this finds.
  return text.includes(':') && !/[\x00-\x1f\x7f]/.test(text);
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Another base64url character whose sextet differs in its top bit, so even a JWT's last character (whose
 * low bits may be padding a decoder is allowed to ignore, RFC 4648 §3.5) decodes to other bytes; "." (the
 * JWS separator) becomes "A", merging two parts.
 */
export function flippedBase64url(c: string): string {
  const index = BASE64URL.indexOf(c);
  return index === -1 ? 'A' : (BASE64URL[index ^ 32] as string);
}

/**
 * A key sent as token68 (RFC 9110 §11.2) or a Bearer b64token (RFC 6750 §2.1). Inside the alphabet: the
 * next letter (a key) or the flipped base64url character (a token); inside token68 but outside base64url
 * ("~", "+"; a lenient decoder skips or remaps them); "." (the JWS separator); outside token68 ("!").
 */
export function tokenValueClasses(jwt: boolean): EditClasses {
  return {
    insert: ['~', '.', '!', 'A', '+'],
    substitute: [jwt ? flippedBase64url : nextLetter, () => '~', () => '.', () => '!', () => '+'],
  };
}

/** The width of a base64 decoding quantum: 4 characters carry 3 octets (RFC 4648 §4, §5). */
const QUANTUM = 4;

/**
 * The positions of a JWS compact value (RFC 7515 §7.1) that its grammar tells apart: in each of its three
 * base64url parts the first quantum (where the part begins), one quantum in its middle and the last quantum
 * with the gap after it (where the part ends: its last character's low bits may be padding, RFC 4648 §3.5),
 * so each "." separator and the end of the value. Every other position lies inside `1*base64url` at the same
 * place of a quantum as one of these: the same position of the production, the same decoding. A 665-character
 * token is ≈ 40 positions, not 666 requests (each one paced under a declared rate limit).
 */
export function jwtPositions(value: string): Set<number> {
  const positions = new Set<number>();
  for (const { start, end, middle } of jwsParts(value)) {
    for (const from of [start, middle, end - QUANTUM])
      for (let i = Math.max(from, start); i < Math.min(from + QUANTUM, end); i++) positions.add(i);
    positions.add(end); // the "." after the part, or the gap after the value
  }
  return positions;
}

/** Each base64url part of a JWS compact value: where it starts, ends, and its middle quantum starts. */
function jwsParts(value: string): { start: number; end: number; middle: number }[] {
  const parts: { start: number; end: number; middle: number }[] = [];
  let start = 0;
  for (const part of value.split('.')) {
    const end = start + part.length;
    parts.push({ start, end, middle: start + Math.floor(part.length / 2 / QUANTUM) * QUANTUM });
    start = end + 1;
  }
  return parts;
}

/**
 * The near misses of a key or token value: one rotating edit at every position (rotatingEdits) of a key;
 * at every position its grammar tells apart of a JWT (jwtPositions).
 */
export function tokenValueNearMisses(value: string, jwt: boolean): GrammarEdit[] {
  const production = jwt ? 'b64token (JWT)' : 'token68 (key)';
  const classes = tokenValueClasses(jwt);
  const only = jwt ? jwtPositions(value) : undefined;
  const edits = rotatingEdits(production, value, classes, only).filter((e) => e.text !== value);
  if (!jwt) return edits;
  // A key's rotation reaches every inserted character along its length; a JWT's few positions per part may
  // not, so each part also gets every inserted character in its middle (a decoder that skips "~" or "!"
  // inside one part only is found there).
  const middles = new Set(jwsParts(value).map((p) => p.middle));
  const seen = new Set(edits.map((e) => e.text));
  const inserts = editsAtEveryPosition(production, value, { insert: classes.insert }).filter(
    (e) => middles.has(e.position) && !seen.has(e.text),
  );
  return [...edits, ...inserts];
}

/** RFC 9110 §11.2 token68 / RFC 6750 §2.1 b64token shape: a value that is not is malformed (400 or 401). */
export function isToken68Shaped(text: string): boolean {
  return /^[A-Za-z0-9\-._~+/]+=*$/.test(text);
}
