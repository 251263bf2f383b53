/**
 * The grammar's edits (specs/fuzz/grammar/) reach every position of each production: every gap for an
 * insertion, every character for a deletion, a doubling, a substitution or a letter-case change. The table
 * the test prints is the one docs/fuzzing.md shows.
 */
import { expect, test } from '@playwright/test';
import { BASE64_CHARS, TCHAR, TOKEN68_CHARS, TOKEN68_NOT_BASE64 } from '../../specs/fuzz/abnf.ts';
import {
  BWS_RESPELLINGS,
  paramNameCaseRespellings,
  paramNameNearMisses,
} from '../../specs/fuzz/grammar/auth-param.ts';
import {
  base64Intruders,
  schemeWordNearMisses,
  schemeWordRespellings,
} from '../../specs/fuzz/grammar/credential-edits.ts';
import { editsAtEveryPosition, positionsReached } from '../../specs/fuzz/grammar/edits.ts';
import {
  flippedBase64url,
  jwtPositions,
  ROTATION,
  rotatingEdits,
  tokenValueClasses,
  tokenValueNearMisses,
  userPassNearMisses,
  userPassWellFormed,
} from '../../specs/fuzz/grammar/value-edits.ts';
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

test('value edits: one rotating edit at every position; every operation and every character class reached', () => {
  const value = 'gck_uJOdCwArCrSa05CMtM28CSLcxiynQ5ml';
  const edits = rotatingEdits('p', value, tokenValueClasses(false));
  expect(edits.map((e) => e.position)).toEqual(range(value.length + 1));
  const reached = positionsReached(edits).p ?? {};
  // Together the operations reach every position, each operation every fourth (the last gap an insertion).
  expect([...new Set(Object.values(reached).flat())].sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
    range(value.length + 1),
  );
  for (const op of ROTATION) expect(reached[op]?.length).toBeGreaterThan(0);
  const classes = tokenValueClasses(false);
  for (const c of classes.insert) expect(edits.some((e) => e.op === 'insert' && e.char === c)).toBe(true);
  for (const e of edits) expect(e.text).not.toBe(value);
});

test("JWT edits: every position its grammar tells apart in all three parts; a replacement flips the sextet's top bit, so the last character changes bytes", () => {
  const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmUtc2ln';
  const edits = tokenValueNearMisses(token, true);
  const positions = [...new Set(edits.map((e) => e.position))].sort((a, b) => a - b);
  // Each part's first, middle and last quantum (RFC 4648 §4: 4 characters decode together), each "." and the end.
  expect(positions).toEqual([
    ...[0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 20],
    ...[21, 22, 23, 24, 25, 26, 27, 28, 32, 33, 34, 35, 36],
    ...[37, 38, 39, 40, 57, 58, 59, 60, 77, 78, 79, 80, 81],
  ]);
  for (const dot of [20, 36]) expect(token[dot]).toBe('.');
  // Every operation and every inserted character class reached, as on a key.
  for (const op of ROTATION) expect(edits.some((e) => e.op === op)).toBe(true);
  // Every inserted character in each part (its middle quantum's first gap: 8, 25, 57).
  for (const c of tokenValueClasses(true).insert)
    for (const gap of [8, 25, 57])
      expect(edits.some((e) => e.op === 'insert' && e.char === c && e.position === gap)).toBe(true);
  // A 665-character token (the mock's RS256 one: 106 + 215 + 342) is 39 edits, not 666.
  expect(jwtPositions(`${'a'.repeat(106)}.${'b'.repeat(215)}.${'c'.repeat(342)}`).size).toBe(39);
  expect(flippedBase64url('A')).toBe('g');
  expect(flippedBase64url('n')).toBe('H');
  expect(flippedBase64url('.')).toBe('A');
  for (const e of edits.filter((x) => x.op === 'substitute' && x.position === token.length - 1))
    expect(Buffer.from(e.text.split('.')[2] ?? '', 'base64url')).not.toEqual(
      Buffer.from(token.split('.')[2] ?? '', 'base64url'),
    );
});

test("user-pass edits: every position, the separator with every operation, no valid user-pass, the user-id's case kept", () => {
  const table: string[] = [];
  const valid = ['alice:wonderland-admin', 'bob:s3cret:päss', 'alicf:wonderland-admin'];
  for (const [user, password] of [
    ['alice', 'wonderland-admin'],
    ['bob', 's3cret:päss'],
  ] as const) {
    const text = `${user}:${password}`;
    const edits = userPassNearMisses(user, password, valid);
    const sep = user.length;
    const positions = new Set(edits.map((e) => e.position));
    for (const i of range([...text].length + 1)) expect(positions.has(i)).toBe(true);
    // Every operation at the separator (by its text: doubling ":" and inserting ":" next to it are one text).
    const texts = edits.map((e) => e.text);
    for (const around of [
      `${user}${password}`,
      `${user}::${password}`,
      `${user};${password}`,
      `${user}x:${password}`,
    ])
      expect(texts).toContain(around);
    expect(edits.some((e) => e.position === sep + 1 && e.op === 'insert')).toBe(true);
    for (const e of edits) expect(valid).not.toContain(e.text);
    expect(new Set(edits.map((e) => e.text)).size).toBe(edits.length);
    // A user-id in another letter case is no near miss (RFC 7613 UsernameCaseMapped); a password's is.
    for (const e of edits.filter((x) => x.position < sep))
      expect(e.text.toLowerCase() === text.toLowerCase()).toBe(false);
    expect(
      edits.some(
        (e) => e.position === sep + 1 && e.op === 'substitute' && e.text.toLowerCase() === text.toLowerCase(),
      ),
    ).toBe(true);
    // The WHERE LIKE probe: a "%" in the user-id.
    expect(edits.some((e) => e.position <= sep && e.char === '%')).toBe(true);
    expect(edits.some((e) => !userPassWellFormed(e.text))).toBe(true);
    table.push(
      `user-pass ${[...text].length} characters: ${edits.length} near misses, gaps and characters 0–${[...text].length}`,
    );
  }
  // "alicf:…" is declared valid: the user-id's last letter replaced by the next is left out.
  expect(
    userPassNearMisses('alice', 'wonderland-admin', valid).some((e) => e.text === 'alicf:wonderland-admin'),
  ).toBe(false);
  console.log(table.join('\n'));
});

test('auth-param name: near misses at every position are other names (not only another case); case respellings at every position', () => {
  for (const name of ['token', 'Token', 'X-Key']) {
    const misses = paramNameNearMisses(name);
    expect(positionsReached(misses)['auth-param name']).toEqual({
      insert: range(name.length + 1),
      delete: range(name.length),
      duplicate: range(name.length),
      substitute: range(name.length),
    });
    for (const e of misses) expect(e.text.toLowerCase()).not.toBe(name.toLowerCase());
    const respellings = paramNameCaseRespellings(name);
    for (const s of respellings) expect(s.name?.toLowerCase()).toBe(name.toLowerCase());
    const cased = [...name].filter((c) => c.toLowerCase() !== c.toUpperCase()).length;
    expect(respellings.length).toBeGreaterThanOrEqual(cased);
    console.log(
      `auth-param name ${name}: ${misses.length} near misses, ${respellings.length} case respellings`,
    );
  }
  expect(BWS_RESPELLINGS.map((s) => `${s.before ?? ''}=${s.after ?? ''}`)).toEqual([
    ' =',
    '= ',
    ' = ',
    '\t=\t',
  ]);
});
