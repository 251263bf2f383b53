/**
 * The grammar's edits (specs/fuzz/grammar/) reach every position of each production: every gap for an
 * insertion, every character for a deletion, a doubling, a substitution or a letter-case change. The table
 * the test prints is the one docs/fuzzing.md shows.
 */
import { expect, test } from '@playwright/test';
import { BASE64_CHARS, TCHAR, TOKEN68_CHARS, TOKEN68_NOT_BASE64 } from '../../specs/fuzz/abnf.ts';
import {
  base64Intruders,
  schemeWordNearMisses,
  schemeWordRespellings,
} from '../../specs/fuzz/grammar/credential-edits.ts';
import { editsAtEveryPosition, positionsReached } from '../../specs/fuzz/grammar/edits.ts';
import { basicUserPass, CANONICAL_SCHEME_WORDS } from '../../specs/profile/credential-maker.ts';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

test('the characters inside token68 and outside base64 are "-", ".", "_", "~"', () => {
  expect(TOKEN68_NOT_BASE64).toBe('-._~');
  for (const c of TOKEN68_NOT_BASE64) {
    expect(TOKEN68_CHARS).toContain(c);
    expect(BASE64_CHARS).not.toContain(c);
  }
});

test('each operation reaches every position of its production, and nothing else', () => {
  const edits = editsAtEveryPosition('p', 'aB9', {
    insert: ['x'],
    delete: true,
    duplicate: true,
    substitute: () => 'z',
    letterCase: true,
  });
  expect(positionsReached(edits)).toEqual({
    p: { insert: [0, 1, 2, 3], delete: [0, 1, 2], duplicate: [0, 1, 2], substitute: [0, 1, 2], case: [0, 1] },
  });
  expect(edits.filter((e) => e.op === 'insert').map((e) => e.text)).toEqual(['xaB9', 'axB9', 'aBx9', 'aB9x']);
  expect(edits.filter((e) => e.op === 'delete').map((e) => e.text)).toEqual(['B9', 'a9', 'aB']);
  expect(edits.every((e) => e.text !== 'aB9')).toBe(true);
});

test('Basic payloads: each of "-", ".", "_", "~" at every gap of the encoded data, up to the pad; labels carry no payload', () => {
  const table: string[] = [];
  for (const payload of [
    basicUserPass('alice', 'wonderland-admin'),
    basicUserPass('bob', 's3cret:päss'),
    'YQ==',
  ]) {
    const edits = base64Intruders(payload);
    const data = payload.replace(/=+$/, '').length;
    const reached = positionsReached(edits)['token68 (Basic)'];
    expect(reached?.insert).toEqual(range(data + 1));
    for (const c of TOKEN68_NOT_BASE64)
      expect(edits.filter((e) => e.char === c).map((e) => e.position)).toEqual(range(data + 1));
    // The pad stays at the end: every edit is still token68-shaped.
    for (const e of edits) expect(e.text.endsWith(payload.slice(data))).toBe(true);
    for (const e of edits) {
      expect([...e.text].every((c) => TOKEN68_CHARS.includes(c) || c === '=')).toBe(true);
      expect(e.label).not.toContain(payload.slice(0, 6));
    }
    table.push(
      `token68 (Basic), ${payload.length} characters, ${data} before the pad: ${edits.length} edits, gaps 0–${data}`,
    );
  }
  console.log(table.join('\n'));
});

test('scheme words: near misses at every position name no accepted scheme; respellings only change case', () => {
  for (const word of CANONICAL_SCHEME_WORDS) {
    const misses = schemeWordNearMisses(word);
    const reached = positionsReached(misses)['auth-scheme'];
    expect(reached).toEqual({
      insert: range(word.length + 1),
      delete: range(word.length),
      duplicate: range(word.length),
      substitute: range(word.length),
    });
    const accepted = CANONICAL_SCHEME_WORDS.map((w) => w.toLowerCase());
    for (const e of misses) {
      expect(accepted).not.toContain(e.text.toLowerCase());
      // "@" is outside tchar (RFC 9110 §5.6.2): that edit is not a token at all; the others stay tokens.
      if (e.char !== '@') expect([...e.text].every((c) => TCHAR.includes(c))).toBe(true);
    }
    const respellings = schemeWordRespellings(word);
    expect(positionsReached(respellings)['auth-scheme']).toEqual({ case: range(word.length) });
    for (const e of respellings) expect(e.text.toLowerCase()).toBe(word.toLowerCase());
    console.log(`auth-scheme ${word}: ${misses.length} near misses, ${respellings.length} respellings`);
  }
});
