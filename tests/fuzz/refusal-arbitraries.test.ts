/**
 * The arbitraries of the refusal checks: path spellings (specs/fuzz/arbitraries/pathSpelling.ts) and JSON
 * item bodies (specs/fuzz/arbitraries/jsonItemBody.ts). Every spelling is another path than the declared
 * one, starts with '/', and goes on the wire as written; every body is JSON text whose stored forms are what
 * JSON.parse reads; each kind shrinks towards its example.
 */
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import {
  BODIES,
  BODY_KINDS,
  type JsonItemBody,
  jsonItemBody,
  jsonItemBodyExamples,
} from '../../specs/fuzz/arbitraries/jsonItemBody.ts';
import {
  pathSpelling,
  pathSpellingExamples,
  SPELLING_KINDS,
  SPELLINGS,
} from '../../specs/fuzz/arbitraries/pathSpelling.ts';
import { wireTarget } from '../../specs/lib/request-target.ts';

const sample = <T>(arb: fc.Arbitrary<T>, numRuns = 100): T[] => fc.sample(arb, { seed: 42, numRuns });

test('path spellings: one example per kind, each another path that goes on the wire as written', () => {
  expect(pathSpellingExamples('/admin')).toEqual([
    { kind: 'trailing slash', path: '/admin/' },
    { kind: 'letter case', path: '/ADMIN' },
    { kind: 'percent-encoded character', path: '/%61dmin' },
    { kind: 'encoded slash', path: '/admin%2F' },
    { kind: 'dot segment', path: '/./admin' },
    { kind: 'encoded dot segment', path: '/%2e/admin' },
    { kind: 'doubled slash', path: '//admin' },
    { kind: 'path parameter', path: '/admin;gatecheck' },
    { kind: 'query trick', path: '/admin?' },
    { kind: 'fragment trick', path: '/admin#gatecheck' },
    { kind: 'suffix', path: '/admin.json' },
    { kind: 'backslash', path: '/admin\\' },
  ]);
  for (const path of ['/admin', '/protected', '/api/v1/admin', '/x']) {
    for (const spelled of [...pathSpellingExamples(path), ...sample(pathSpelling(path))]) {
      expect(spelled.path, `${spelled.kind} of ${path}`).not.toBe(path);
      expect(spelled.path.startsWith('/'), `${spelled.kind}: ${spelled.path}`).toBe(true);
      expect(wireTarget(`http://127.0.0.1:1${spelled.path}`), spelled.kind).toBe(spelled.path);
    }
  }
});

test('path spellings: every kind is generated, two kinds combine, and each kind shrinks to its example', () => {
  const kinds = new Set(sample(pathSpelling('/admin'), 2000).map((s) => s.kind));
  for (const kind of SPELLING_KINDS) expect(kinds, kind).toContain(kind);
  const combined = [...kinds].filter((kind) => kind.includes(' + '));
  expect(combined.length, 'combined spellings').toBeGreaterThan(0);
  // Never a kind over itself, which could undo it (/ADMIN, then /admin).
  for (const kind of combined) expect(new Set(kind.split(' + ')).size, kind).toBe(2);
  for (const [kind, spelling] of Object.entries(SPELLINGS)) {
    const failing = fc.check(
      fc.property(spelling.arbitrary('/api/admin'), () => false),
      { seed: 7 },
    );
    expect(failing.counterexample?.[0], kind).toBe(spelling.example('/api/admin'));
  }
});

test('JSON bodies: every example is JSON text (a BOM aside), and what must be stored is what JSON.parse reads', () => {
  const item = { name: 'Gatecheck Probe', email: 'probe@example.test' };
  const examples = jsonItemBodyExamples(item);
  expect(examples.map((b) => b.kind)).toEqual(BODY_KINDS);
  for (const body of [...examples, ...sample(jsonItemBody(item))]) {
    const text = body.text.replace(/^\uFEFF/, '');
    const parsed = JSON.parse(text) as unknown;
    if (body.stored === undefined) {
      expect(parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed), body.kind).toBe(false);
      continue;
    }
    expect(body.stored[0], body.kind).toEqual(parsed);
  }
  const byKind = Object.fromEntries(examples.map((b) => [b.kind, b]));
  expect(byKind.array?.stored).toBeUndefined();
  expect(byKind['nested arrays']?.text).toContain('['.repeat(1000));
  expect(byKind['nested objects']?.text).toContain('{"a":'.repeat(1000));
  expect(byKind['huge number']?.stored?.[0]?.gatecheckNumber).toBe(Number.POSITIVE_INFINITY);
  expect(Object.hasOwn(byKind['__proto__ member']?.stored?.[0] ?? {}, '__proto__')).toBe(true);
  // Duplicate names: the last value (JSON.parse) or the first.
  expect(byKind['duplicate names']?.stored?.map((s) => s.gatecheckTwice)).toEqual(['second', 'first']);
  expect(byKind['lone surrogate']?.stored?.[0]?.gatecheckText).toBe('\ud800');
  expect(byKind['byte order mark']?.text.charCodeAt(0)).toBe(0xfeff);
});

test('JSON bodies: every kind is generated and shrinks towards its example', () => {
  const item = { name: 'p' };
  const kinds = new Set(sample(jsonItemBody(item), 1000).map((b) => b.kind));
  for (const kind of BODY_KINDS) expect(kinds, kind).toContain(kind);
  for (const [kind, body] of Object.entries(BODIES)) {
    const failing = fc.check(
      fc.property(body.arbitrary(item), () => false),
      { seed: 7 },
    );
    const smallest = failing.counterexample?.[0] as JsonItemBody | undefined;
    expect(smallest?.kind, kind).toBe(kind);
    // The constant lists shrink to their example; the generated kinds to a small value of the kind.
    if (!['array', 'duplicate names', 'any JSON value'].includes(kind))
      expect(smallest?.text, kind).toBe(body.example(item).text);
  }
});
