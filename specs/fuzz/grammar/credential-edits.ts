/**
 * The edits of each production of a credential the checks send (specs/fuzz/grammar/edits.ts applies them at
 * every position):
 *
 *   credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]      RFC 9110 §11.4
 *   auth-scheme = token ; token = 1*tchar                              RFC 9110 §11.1, §5.6.2
 *   token68     = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="   RFC 9110 §11.2
 *   Basic: token68 = base64( user-pass ), base64 the RFC 4648 §4 alphabet         RFC 7617 §2
 *
 * Near misses must be refused; respellings must be taken like the canonical value.
 */
import { TOKEN68_NOT_BASE64 } from '../abnf.ts';
import { editsAtEveryPosition, type GrammarEdit } from './edits.ts';

/** The next letter in the same case (`z` → `a`), the next digit; another tchar for the rest. */
function nextLetter(c: string): string {
  if (/[a-y]/i.test(c) || /[0-8]/.test(c)) return String.fromCharCode(c.charCodeAt(0) + 1);
  if (c === 'z' || c === 'Z') return String.fromCharCode(c.charCodeAt(0) - 25);
  return c === 'x' ? 'y' : 'x';
}

/**
 * RFC 4648 §3.3 via RFC 7617 §2: characters inside token68 but outside base64 ("-", ".", "_", "~") inserted
 * at every position of a Basic payload's encoded data, up to its pad. Each is refused by a strict decoder; a
 * shape check passes each, and a lenient decoder turns "." and "~" back into the valid credential. Positions
 * after the pad are left out: a decoder that stops at the first "=" (nginx's) never reads them, and §3.3 leaves
 * what follows the pad to the decoder ("MAY also be ignored" for excess pad characters).
 */
export function base64Intruders(payload: string): GrammarEdit[] {
  const data = payload.replace(/=+$/, '');
  const pad = payload.slice(data.length);
  return editsAtEveryPosition('token68 (Basic)', data, { insert: [...TOKEN68_NOT_BASE64] }).map((edit) => ({
    ...edit,
    text: `${edit.text}${pad}`,
  }));
}

/**
 * Another token than the scheme's word (RFC 9110 §11.1: the scheme is a token, compared whole): a letter
 * inserted at every gap, each character deleted, doubled and replaced by the next letter; and "@", outside
 * tchar, inserted at every gap. Each names no scheme the target accepts (or no token at all).
 */
export function schemeWordNearMisses(word: string): GrammarEdit[] {
  return editsAtEveryPosition('auth-scheme', word, {
    insert: ['x', '@'],
    delete: true,
    duplicate: true,
    substitute: nextLetter,
  });
}

/** RFC 9110 §11.1 "a case-insensitive token": the word with one character's case inverted, at every position. */
export function schemeWordRespellings(word: string): GrammarEdit[] {
  return editsAtEveryPosition('auth-scheme', word, { letterCase: true });
}

/** What stands between the scheme and its credentials instead of 1*SP (RFC 9110 §11.4): nothing, a tab. */
export const SEPARATOR_NEAR_MISSES: readonly { readonly label: string; readonly separator: string }[] = [
  { label: 'the space after the scheme deleted', separator: '' },
  { label: 'a tab instead of the space after the scheme', separator: '\t' },
];

/** RFC 9110 §11.4 `1*SP`: two and three spaces between the scheme and its credentials. */
export const SEPARATOR_RESPELLINGS: readonly { readonly label: string; readonly separator: string }[] = [
  { label: 'two spaces after the scheme', separator: '  ' },
  { label: 'three spaces after the scheme', separator: '   ' },
];
