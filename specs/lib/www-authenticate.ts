/**
 * A parser for the `WWW-Authenticate` response header (RFC 9110 §11.6.1) — the suite's judge of every
 * 401 and of Bearer errors, shared with the fuzzer. It returns `undefined` for a value that does not
 * follow the grammar (jshttp habit: bad input is "no result", never an exception).
 *
 * RFC 9110 §11.6.1 and §11.2, with the list rule of §5.6.1:
 *
 *   WWW-Authenticate = [ challenge *( OWS "," OWS challenge ) ]   ; empty list elements are ignored
 *   challenge        = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
 *   auth-scheme      = token
 *   auth-param       = token BWS "=" BWS ( token / quoted-string )
 *   token68          = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
 *   token            = 1*tchar
 *   quoted-string    = DQUOTE *( qdtext / quoted-pair ) DQUOTE
 *
 * Scheme and parameter names are case-insensitive (§11.1, §11.2); they are kept as sent in `scheme` /
 * `params[].name` and lower-cased in `schemeLower` / `param()`.
 */
import { memoized } from './memo.ts';

export interface AuthParam {
  readonly name: string;
  /** Unquoted value (quoted-pairs resolved). */
  readonly value: string;
  /** Whether the sender used the quoted-string form (RFC 9110 §11.5: realm MUST be quoted). */
  readonly quoted: boolean;
}

export interface Challenge {
  readonly scheme: string;
  readonly schemeLower: string;
  readonly token68?: string;
  readonly params: readonly AuthParam[];
}

/** Value of a parameter by case-insensitive name. */
export function param(challenge: Challenge, name: string): string | undefined {
  const lower = name.toLowerCase();
  return challenge.params.find((p) => p.name.toLowerCase() === lower)?.value;
}

/** The challenges naming `scheme` (case-insensitive). */
export function challengesFor(challenges: readonly Challenge[], scheme: string): Challenge[] {
  const lower = scheme.toLowerCase();
  return challenges.filter((c) => c.schemeLower === lower);
}

// tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
const TOKEN = /[!#$%&'*+\-.^_`|~0-9A-Za-z]+/y;
// token68 = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const TOKEN68 = /[A-Za-z0-9\-._~+/]+=*/y;
// qdtext = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text; quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )
const QUOTED = /"((?:[\t \x21\x23-\x5B\x5D-\x7E\x80-\xFF]|\\[\t \x21-\x7E\x80-\xFF])*)"/y;

class Cursor {
  pos = 0;
  constructor(readonly text: string) {}
  get done(): boolean {
    return this.pos >= this.text.length;
  }
  peek(): string {
    return this.text[this.pos] ?? '';
  }
  /** OWS / BWS = *( SP / HTAB ) */
  ows(): number {
    const start = this.pos;
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++;
    return this.pos - start;
  }
  match(re: RegExp): RegExpExecArray | null {
    re.lastIndex = this.pos;
    const m = re.exec(this.text);
    if (m) this.pos = re.lastIndex;
    return m;
  }
}

/** Tries `token BWS "=" BWS ( token / quoted-string )` at the cursor; restores it on failure. */
function authParam(c: Cursor): AuthParam | undefined {
  const start = c.pos;
  const name = c.match(TOKEN);
  if (name) {
    c.ows();
    if (c.peek() === '=') {
      c.pos++;
      c.ows();
      const quoted = c.match(QUOTED);
      if (quoted) return { name: name[0], value: (quoted[1] ?? '').replace(/\\(.)/g, '$1'), quoted: true };
      const token = c.match(TOKEN);
      if (token) return { name: name[0], value: token[0], quoted: false };
    }
  }
  c.pos = start;
  return undefined;
}

/** After an element: OWS then "," or the end. Returns false when something else follows. */
function elementEnd(c: Cursor): boolean {
  c.ows();
  return c.done || c.peek() === ',';
}

/**
 * Parses one or more `WWW-Authenticate` field values (several field lines are one list, RFC 9110 §5.3).
 * Returns `undefined` when any value breaks the grammar or a challenge repeats a parameter name
 * (§11.2: "Each parameter name MUST only occur once per challenge"), and `[]` for an empty value.
 */
export function parseWwwAuthenticate(value: string | readonly string[]): Challenge[] | undefined {
  if (typeof value !== 'string') {
    if (!Array.isArray(value))
      throw new TypeError('parseWwwAuthenticate expects a string or an array of strings');
    const all: Challenge[] = [];
    for (const v of value) {
      const parsed = parseWwwAuthenticate(v);
      if (!parsed) return undefined;
      all.push(...parsed);
    }
    return all;
  }
  const c = new Cursor(value);
  const challenges: Challenge[] = [];
  for (;;) {
    // Empty list elements: *( "," OWS )
    c.ows();
    while (c.peek() === ',') {
      c.pos++;
      c.ows();
    }
    if (c.done) return challenges;

    const scheme = c.match(TOKEN);
    if (!scheme) return undefined;
    const params: AuthParam[] = [];
    let token68: string | undefined;
    const spaces = c.ows();
    if (!c.done && c.peek() !== ',') {
      if (spaces === 0) return undefined; // the scheme must be followed by 1*SP, "," or the end
      const first = authParam(c);
      if (first) {
        params.push(first);
        // #auth-param: further parameters after commas, until an element that is not `name=value`
        // (that element starts the next challenge).
        for (;;) {
          if (!elementEnd(c)) return undefined;
          if (c.done) break;
          const save = c.pos;
          c.pos++; // ","
          c.ows();
          while (c.peek() === ',') {
            c.pos++;
            c.ows();
          }
          const next = authParam(c);
          if (!next) {
            c.pos = save;
            break;
          }
          params.push(next);
        }
      } else {
        const t = c.match(TOKEN68);
        if (!t) return undefined;
        token68 = t[0];
        if (!elementEnd(c)) return undefined;
      }
    }
    const names = new Set<string>();
    for (const p of params) {
      const lower = p.name.toLowerCase();
      if (names.has(lower)) return undefined;
      names.add(lower);
    }
    challenges.push({
      scheme: scheme[0],
      schemeLower: scheme[0].toLowerCase(),
      ...(token68 === undefined ? {} : { token68 }),
      params,
    });
    if (!elementEnd(c)) return undefined;
  }
}

/**
 * parseWwwAuthenticate of one field value, remembered (specs/lib/memo.ts): the fuzz engine's and the
 * observers' judges read the challenges of every answer, and a run's thousands of answers carry a handful of
 * distinct ones. The result is shared: callers read it, never change it.
 */
export const challengesIn: (value: string) => readonly Challenge[] | undefined = memoized((value) =>
  parseWwwAuthenticate(value),
);
