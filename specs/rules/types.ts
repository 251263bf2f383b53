/**
 * A conformance rule is a declared object (h2spec `spec.TestCase`, test262 front matter):
 * the report, the docs page and coverage are computed from these declarations,
 * never by grepping test titles or comments.
 */

/** MUST fails the run; SHOULD is a warning unless strict; INFO only reports what the target does. */
export type Level = 'MUST' | 'SHOULD' | 'INFO';

export interface Reference {
  /** Short name of the document: 'seed', 'RFC 9110', 'RFC 6750', ... */
  readonly spec: string;
  /** Section or clause inside it, e.g. '§11.6.1' or '§7 403'. */
  readonly section: string;
  /** A link a reader can open (the seed is linked by its file name in the repository). */
  readonly url: string;
}

export interface Rule {
  /** Stable dotted name (`auth.401.challenge`, `jwt.attack.alg-none`), never a number. */
  readonly id: string;
  readonly level: Level;
  /** One line, stated as the requirement on the target. */
  readonly requirement: string;
  readonly refs: readonly Reference[];
  /** The HTTP statuses the rule is about; the report's status × rule matrix is built from this. */
  readonly statuses: readonly number[];
  /** Profile data the rule needs, for the "skipped: profile lacks …" reason (dotted profile paths). */
  readonly needs?: readonly string[];
}

/**
 * How a test points at its rule (the reporter reads these; nothing else is parsed):
 * - tag `@must` / `@should` / `@info` and tag `@rule:<id>` (so `--grep @rule:<id>` selects one rule);
 * - annotation `{ type: 'rule', description: <id> }` and one `{ type: 'ref', description: <url> }` per reference;
 * - a SHOULD check that fails while not strict passes with annotation `{ type: 'warning', description }`;
 * - a rule skipped for missing profile data calls `test.skip(true, 'profile lacks <field>: <why>')`.
 * - evidence for a failure is attached as `evidence.json` (see specs/lib/evidence.ts), credentials redacted.
 * - what an INFO check saw (e.g. the target's order of checks) goes in annotation
 *   `{ type: 'observation', description }`; the report shows it as the rule's observation.
 */
export const ANNOTATION = {
  rule: 'rule',
  ref: 'ref',
  warning: 'warning',
  observation: 'observation',
} as const;
