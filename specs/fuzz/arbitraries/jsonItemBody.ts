import fc from 'fast-check';

/**
 * A write body that is JSON, of any shape, built around the item a target accepts (the profile's
 * `sampleItem`): the item with one member more, or another JSON value altogether.
 *
 * RFC 8259 §2:
 *
 *   JSON-text = ws value ws
 *   value     = false / null / true / object / array / number / string
 *
 * with the corners RFC 8259 names: §4 (names SHOULD be unique; with duplicates "the behavior of software
 * … is unpredictable"), §6 (numbers beyond IEEE 754 double range and precision), §8.1 (a byte order mark a
 * parser MAY ignore), §8.2 (escaped lone surrogates, whose "behavior … is unpredictable"), §9 (a parser may
 * limit nesting depth) — and the member names JavaScript servers trip over (`__proto__`, `constructor`).
 *
 * A new kind of body is one more entry of BODIES; each entry's arbitrary shrinks towards its example.
 */

/** One body, and what a server that answers it with 2xx must give back when the item is read. */
export interface JsonItemBody {
  /** The entry of BODIES, for the evidence. */
  readonly kind: string;
  /** The body as sent (a string; UTF-8 on the wire). */
  readonly text: string;
  /**
   * The item as a server that stores it must read it back, one alternative per reading the RFCs allow
   * (duplicate names: the last or the first); numbers as JSON.parse reads them (IEEE 754 doubles, 1e400 is
   * Infinity). Undefined when the body is not an object: there is no item to read back.
   */
  readonly stored?: readonly Readonly<Record<string, unknown>>[];
}

type Sample = Readonly<Record<string, unknown>>;

interface BodyKind {
  readonly example: (sample: Sample) => JsonItemBody;
  readonly arbitrary: (sample: Sample) => fc.Arbitrary<JsonItemBody>;
}

/** The sample item's JSON text with `members` (JSON text of name/value pairs) added at the end. */
export function withMembers(sample: Sample, members: string): string {
  const text = JSON.stringify(sample);
  return Object.keys(sample).length === 0 ? `{${members}}` : `${text.slice(0, -1)},${members}}`;
}

/** A body that is an object: stored as JSON.parse reads it. */
function objectBody(kind: string, text: string): JsonItemBody {
  return { kind, text, stored: [JSON.parse(text.replace(/^\uFEFF/, '')) as Record<string, unknown>] };
}

/** The sample item with `members` added, as a body of `kind`. */
function itemWith(kind: string, sample: Sample, members: string): JsonItemBody {
  return objectBody(kind, withMembers(sample, members));
}

/** A body of `kind` for each of `forms` (JSON text of members), shrinking towards the first. */
function memberForms(kind: string, forms: readonly string[]): BodyKind {
  return {
    example: (sample) => itemWith(kind, sample, forms[0] ?? ''),
    arbitrary: (sample) => fc.constantFrom(...forms).map((members) => itemWith(kind, sample, members)),
  };
}

const nestedArrays = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nestedObjects = (depth: number): string => `${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`;

/** RFC 8259 §9 lets a parser limit depth; 1,000 is past most recursive walkers' comfort. */
const DEEP = 1000;

/** Of duplicate names, the first value kept (RFC 8259 §4 allows either reading). */
function firstWins(sample: Sample, name: string, first: unknown): Record<string, unknown> {
  return { ...sample, [name]: first };
}

export const BODIES: Readonly<Record<string, BodyKind>> = {
  array: {
    example: (sample) => ({ kind: 'array', text: JSON.stringify([sample]) }),
    arbitrary: (sample) =>
      fc
        .array(fc.oneof(fc.constant(sample), fc.jsonValue({ maxDepth: 2 })), { maxLength: 4 })
        .map((items) => ({ kind: 'array', text: JSON.stringify(items) })),
  },
  'nested arrays': {
    example: (sample) => itemWith('nested arrays', sample, `"gatecheckNested":${nestedArrays(DEEP)}`),
    arbitrary: (sample) =>
      fc.constantFrom(itemWith('nested arrays', sample, `"gatecheckNested":${nestedArrays(DEEP)}`), {
        kind: 'nested arrays',
        text: nestedArrays(DEEP),
      }),
  },
  'nested objects': {
    example: (sample) => itemWith('nested objects', sample, `"gatecheckNested":${nestedObjects(DEEP)}`),
    arbitrary: (sample) =>
      fc.constantFrom(
        itemWith('nested objects', sample, `"gatecheckNested":${nestedObjects(DEEP)}`),
        objectBody('nested objects', nestedObjects(DEEP)),
      ),
  },
  // RFC 8259 §6: beyond the double range (1e400 reads as Infinity) and beyond its precision.
  'huge number': memberForms('huge number', [
    '"gatecheckNumber":1e400',
    '"gatecheckNumber":-1e400',
    '"gatecheckNumber":123456789012345678901234567890',
    '"gatecheckNumber":9007199254740993',
    '"gatecheckNumber":1.7976931348623157e308',
  ]),
  'fractional number': memberForms('fractional number', [
    '"gatecheckNumber":0.1',
    '"gatecheckNumber":-0.0',
    '"gatecheckNumber":1.5e-7',
    '"gatecheckNumber":1e-400',
    '"gatecheckNumber":3.14159265358979323846264338327950288',
  ]),
  // JSON.parse keeps "__proto__" as an own member; `Object.assign` or `obj[name] = …` sets the prototype instead.
  '__proto__ member': memberForms('__proto__ member', [
    '"__proto__":{"gatecheck":true}',
    '"__proto__":null',
    '"__proto__":"gatecheck"',
  ]),
  'constructor member': memberForms('constructor member', [
    '"constructor":{"prototype":{"gatecheck":true}}',
    '"prototype":{"gatecheck":true}',
    '"toString":"gatecheck"',
    '"hasOwnProperty":"gatecheck"',
  ]),
  'duplicate names': {
    example: (sample) => duplicated(sample, 'gatecheckTwice', 'first', 'second'),
    arbitrary: (sample) =>
      fc
        .tuple(fc.jsonValue({ maxDepth: 1 }), fc.jsonValue({ maxDepth: 1 }))
        .map(([first, second]) => duplicated(sample, 'gatecheckTwice', first, second)),
  },
  // RFC 8259 §8.2: an escaped lone surrogate is legal JSON text, not a legal Unicode string.
  'lone surrogate': memberForms('lone surrogate', [
    '"gatecheckText":"\\ud800"',
    '"gatecheckText":"\\udc00"',
    '"gatecheckText":"a\\ud83d"',
    '"gatecheck\\udfff":"x"',
  ]),
  // RFC 8259 §8.1: senders MUST NOT add a BOM; a parser MAY ignore it (then the item is stored) or refuse it.
  'byte order mark': {
    example: (sample) => objectBody('byte order mark', `\uFEFF${JSON.stringify(sample)}`),
    arbitrary: (sample) => fc.constant(objectBody('byte order mark', `\uFEFF${JSON.stringify(sample)}`)),
  },
  // Whatever fast-check's JSON values make, strings of any Unicode grapheme included (its 'binary' unit costs
  // 1.5 s to build; the lone surrogates it would add have an entry of their own).
  'any JSON value': {
    example: (sample) => itemWith('any JSON value', sample, '"gatecheckValue":[true,null,{"":-1.5e-300}]'),
    arbitrary: (sample) =>
      fc.oneof(
        fc
          .jsonValue({ maxDepth: 3, stringUnit: 'grapheme' })
          .map((value) => itemWith('any JSON value', sample, `"gatecheckValue":${JSON.stringify(value)}`)),
        fc.jsonValue({ maxDepth: 3, stringUnit: 'grapheme' }).map((value) => {
          const text = JSON.stringify(value);
          return value !== null && typeof value === 'object' && !Array.isArray(value)
            ? objectBody('any JSON value', text)
            : { kind: 'any JSON value', text };
        }),
      ),
  },
};

/** `name` twice in the item: the second value as JSON.parse keeps it, or the first. */
function duplicated(sample: Sample, name: string, first: unknown, second: unknown): JsonItemBody {
  const text = withMembers(sample, `"${name}":${JSON.stringify(first)},"${name}":${JSON.stringify(second)}`);
  const last = JSON.parse(text) as Record<string, unknown>;
  return { kind: 'duplicate names', text, stored: [last, firstWins(sample, name, first)] };
}

export const BODY_KINDS: readonly string[] = Object.keys(BODIES);

/** The example of every kind, in BODIES order: what a check sends on every run. */
export function jsonItemBodyExamples(sample: Sample): JsonItemBody[] {
  return Object.values(BODIES).map((kind) => kind.example(sample));
}

/** A JSON body of any kind, built around `sample`. */
export function jsonItemBody(sample: Sample): fc.Arbitrary<JsonItemBody> {
  return fc.oneof(...Object.values(BODIES).map((kind) => kind.arbitrary(sample)));
}
