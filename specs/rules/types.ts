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

/**
 * What a failure of the rule costs the target's users, worst first (issue #66): the report, the summary and
 * the step summary list findings in this order, so an access bypass never reads like a refused spelling.
 */
export type Impact = 'access' | 'leak' | 'status' | 'refusal';

export const IMPACTS: readonly Impact[] = ['access', 'leak', 'status', 'refusal'];

export const IMPACT_TITLES: Readonly<Record<Impact, string>> = {
  access: 'access granted without valid credentials',
  leak: 'information leaked',
  status: 'wrong status semantics',
  refusal: 'a legal request refused',
};

/**
 * What a target must declare for a rule to apply to it (docs/design.md "Applicability"): a scheme it accepts,
 * JWT Bearer tokens, a writable collection, a role… A rule whose feature the profile's declaration rules out
 * is not applicable — listed with the declaration that rules it out, never counted as skipped.
 * specs/verdict/applicability.ts reads a profile into the features it declares.
 */
export type Feature =
  | 'bearer'
  | 'basic'
  | 'apikey'
  /** A read that answers without credentials (profile `endpoints.public`). */
  | 'public'
  /** Bearer tokens are JWTs the profile describes (profile `jwt`). */
  | 'jwt'
  /** The target checks `iss` / `aud` (profile `jwt.issuer` / `jwt.audience`). */
  | 'jwt-issuer'
  | 'jwt-audience'
  /** The JWS algorithm is asymmetric (RS*, PS*, ES*, EdDSA): a public key exists to confuse. */
  | 'jwt-asymmetric'
  /** A writable collection (profile `endpoints.collection`, or a write method in `methods`). */
  | 'writes'
  /** An admin role: a read the user identity may not make (profile `endpoints.admin`). */
  | 'admin-role'
  /** A write some identity may not make (collection `writer` other than `any`). */
  | 'write-role'
  /** Clients blocked by address or location (profile `blocked.clients`). */
  | 'blocking'
  /** A request closed to every client (profile `blocked.closed`). */
  | 'closed-route'
  /** A way to provoke a 500 (profile `fault`). */
  | 'fault'
  /** Two identities, admin and user (profile `identities`). */
  | 'two-identities'
  /** An endpoint taking two schemes or more. */
  | 'two-schemes'
  /** A request refused to the user (admin read or write) that takes two schemes or more. */
  | 'refused-two-schemes';

/** All of the entries; an entry that is a list is met by any one of its features. */
export type Requirement = Feature | readonly Feature[];

/** A cause of the failure seen on a real stack a test of this repository starts (never a guess). */
export interface KnownCause {
  /** `Node's node:http`, `Debian's nginx 1.22`. */
  readonly stack: string;
  /** What that stack does that fails the rule, one sentence. */
  readonly cause: string;
  /** The test file that shows it, relative to the repository. */
  readonly shownBy: string;
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
  /** What the target must declare for the rule to apply (all of them); absent: every target. */
  readonly requires?: readonly Requirement[];
  /** What a failure costs (worst first in the report). */
  readonly impact: Impact;
  /** What behaviour to change, one or two sentences, stated as the fix. */
  readonly remedy: string;
  /** Known causes on stacks the tests start, each with the test that shows it. */
  readonly causes?: readonly KnownCause[];
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
 * - a check that cannot run because another rule's behaviour was observed (its precondition failed: the 401
 *   never came, the valid credential was refused) names that rule, or an id pattern, in annotation
 *   `{ type: 'cause', description: <id> }` before it skips (specs/kit/kit.ts `unmet`): the report then files
 *   it under that rule's finding (issue #67).
 */
export const ANNOTATION = {
  rule: 'rule',
  ref: 'ref',
  warning: 'warning',
  observation: 'observation',
  cause: 'cause',
} as const;
