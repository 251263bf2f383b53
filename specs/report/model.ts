/**
 * The shape of `conformance.json`. `conformance.schema.json` beside this file is its validated,
 * published form; keep them in step and bump REPORT_SCHEMA_VERSION on any change a reader would notice
 * (semver: a new optional field is minor, a removed or renamed field is major).
 */

import type { Evidence } from '../lib/evidence.ts';
import type { Impact, KnownCause, Level, Reference } from '../rules/types.ts';
import type { Politeness } from '../run/coordinator.ts';

export const REPORT_SCHEMA_VERSION = '1.3.0';

/**
 * pass: every test of the rule passed (INFO: the observation was made).
 * fail: a MUST test failed, or a SHOULD test failed under --strict.
 * warn: a SHOULD test failed while not strict, a test carried a `warning` annotation, or an INFO test
 *       could not make its observation.
 * skip: every test of the rule was skipped (the reason says which profile data is missing).
 * not-run: the catalogue declares the rule but no test of it ran (filtered out, or no test checks it yet).
 * not-applicable: the profile's declaration rules the rule out (read-only, no Basic, no admin role…) and no
 *       test of it ran; the reason names the declaration. Counted apart: never skipped, never waived or baselined.
 */
export type Verdict = 'pass' | 'fail' | 'warn' | 'skip' | 'not-run' | 'not-applicable';

/** Every verdict, in the order counts and tables list them. */
export const VERDICTS: readonly Verdict[] = ['pass', 'fail', 'warn', 'skip', 'not-run', 'not-applicable'];

export const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'INFO'];

/** The run's verdict in three words: conformant, partial (conformant as far as checked), not-conformant. */
export type Outcome = 'conformant' | 'partial' | 'not-conformant';

/** Playwright's outcome of one test, after retries. */
export type TestOutcome = 'passed' | 'failed' | 'skipped' | 'flaky';

export interface TestReport {
  /** Title path below the file: describe blocks and the test title, joined by ' › '. */
  readonly title: string;
  /** File relative to the suite's test directory, with the line of the test. */
  readonly location: string;
  readonly outcome: TestOutcome;
  readonly durationMs: number;
  /** Attempts made (1 + retries used). */
  readonly attempts: number;
  /** First error of the last attempt, ANSI stripped and redacted. */
  readonly error?: string;
  /** Descriptions of `warning` annotations. */
  readonly warnings?: readonly string[];
  /** Reason given to test.skip(). */
  readonly skipReason?: string;
  /** Descriptions of `observation` annotations (INFO rules). */
  readonly observations?: readonly string[];
  /** Rule ids or patterns a skipped check named as the cause of its unmet precondition. */
  readonly causes?: readonly string[];
}

export interface RuleReport {
  readonly id: string;
  readonly level: Level;
  readonly requirement: string;
  readonly refs: readonly Reference[];
  readonly statuses: readonly number[];
  /** false for a rule id that tests point at but the catalogue does not declare (a suite bug, shown as such). */
  readonly inCatalogue: boolean;
  /** What a failure of the rule costs (specs/rules/types.ts Impact); findings are listed by it, worst first. */
  readonly impact: Impact;
  /** What behaviour to change, one or two sentences. */
  readonly remedy: string;
  /** Known causes on stacks the project's tests start, each with the test that shows it. */
  readonly causes?: readonly KnownCause[];
  readonly verdict: Verdict;
  /** Why this verdict, one line: the failure's expected/actual, the warning, the skip reason… */
  readonly reason?: string;
  /** What an INFO rule (or any rule) observed about the target. */
  readonly observations: readonly string[];
  readonly tests: readonly TestReport[];
  /** Request, response, expected answers and a replay line per failed check, credentials redacted. */
  readonly evidence: readonly Evidence[];
  /**
   * A failing rule accepted by a live waiver (--waivers): the verdict stays `fail`, the evidence stays whole;
   * the gate does not fail the run on it (specs/report/gate/).
   */
  readonly waiver?: RuleWaiver;
  /** How this rule's verdict compares with the --baseline run's (absent: no baseline, or nothing to say). */
  readonly baseline?: RuleBaseline;
  /**
   * A skipped rule stopped by other rules' failures (its checks' precondition needed their behaviour, issue
   * #67): their ids. It is part of their finding — waived, baselined and gated with it, never "worse" alone.
   */
  readonly causedBy?: readonly string[];
}

/** The waiver that accepted a failing rule, as its file gives it. */
export interface RuleWaiver {
  readonly reason: string;
  /** The last day (YYYY-MM-DD, UTC) the waiver holds. */
  readonly until: string;
  readonly endpoint?: string;
  readonly ticket?: string;
}

/**
 * known: failing in the baseline and now. fixed: failing in the baseline, not now. worse: passing (or run) in
 * the baseline and failing (or, for MUST, unchecked) now. new: not in the baseline's catalogue. stopped: run in
 * the baseline, stopped now by another rule's failure (`causedBy`): that failure is the finding, not this rule.
 */
export type BaselineChange = 'known' | 'fixed' | 'worse' | 'new' | 'stopped';

export interface RuleBaseline {
  readonly change: BaselineChange;
  /** The rule's verdict in the baseline; null when the baseline's catalogue did not have it. */
  readonly was: Verdict | null;
}

/** A waiver file's entry and what became of it in this run. */
export interface WaiverEntryReport extends RuleWaiver {
  readonly rule: string;
  /**
   * applied: it accepted a failing rule. stale: it matched no failure (the rule passes, was skipped, or its
   * endpoint is gone) — remove it. expired: its `until` is before today; it fails the run.
   */
  readonly state: 'applied' | 'stale' | 'expired';
  /** A pattern's (`auth.401.*`) failing rules it accepted. */
  readonly matched?: readonly string[];
  /** Why, one line (for stale and expired entries, and an endpoint that covered only part of a failure). */
  readonly note?: string;
}

export interface WaiversReport {
  /** The waiver file as named (--waivers, or the profile's `waivers`). */
  readonly source: string;
  /** The date the `until`s were compared with (YYYY-MM-DD, UTC). */
  readonly today: string;
  /** --strict-waivers: a stale waiver fails the run. */
  readonly strict: boolean;
  readonly entries: readonly WaiverEntryReport[];
}

export interface BaselineReport {
  /** The baseline report's file as named (--baseline). */
  readonly source: string;
  readonly catalogueVersion: string;
  /** The baseline run's start. */
  readonly startedAt: string;
  /** Rules of this catalogue the baseline did not have, and the baseline's rules this catalogue lacks. */
  readonly newRules: readonly string[];
  readonly removedRules: readonly string[];
  /** What got worse, one line each: `<rule>: <was> → <now>`. */
  readonly worse: readonly string[];
  readonly known: readonly string[];
  readonly fixed: readonly string[];
  /** Rules run in the baseline and stopped now by another rule's failure: `<rule>: stopped by <cause>`. */
  readonly stopped?: readonly string[];
}

/**
 * The CI gate, when waivers or a baseline were given: it decides the exit code, the verdict above does not
 * change. passed: every failure is waived or known, nothing got worse, no waiver expired.
 */
export interface GateReport {
  readonly passed: boolean;
  /** One sentence: "Gate passed: …" or "Gate failed: …". */
  readonly statement: string;
  /** Each reason the gate failed, one line. */
  readonly blocking: readonly string[];
  /**
   * The same reasons with what they are about, for the annotations (one `::error` each): a failure not accepted,
   * a rule worse than the baseline, an expired or (under --strict-waivers) stale waiver, a reason outside the
   * rules. Absent in reports before schema 1.3.0.
   */
  readonly reasons?: readonly GateReason[];
  readonly counts: {
    /** Rules whose verdict is fail, accepted or not. */
    readonly failing: number;
    readonly waived: number;
    readonly known: number;
    /** Failing rules neither waived nor known. */
    readonly unaccepted: number;
    readonly fixed: number;
    readonly stale: number;
    readonly expired: number;
  };
}

/** One reason the gate failed (GateReport.reasons). */
export interface GateReason {
  readonly kind: 'failure' | 'worse' | 'expired' | 'stale' | 'run';
  /** The rule it is about, when one is (a waiver's id pattern, `auth.401.*`, for a waiver's reason). */
  readonly rule?: string;
  readonly text: string;
}

export type VerdictCounts = Record<Verdict, number> & { total: number };

/** A declared deviation from the seed (specs/declaration/deviations.ts). */
export interface DeviationReport {
  readonly field: string;
  readonly text: string;
}

/**
 * The interface the target was judged as (specs/declaration/): its class in one line, the features the profile
 * declares, and every declared deviation from the seed. `gatecheck verify` recomputes all three from the
 * redacted profile a statement embeds.
 */
export interface DeclarationReport {
  /** "Bearer (JWT RS256) · read-only · admin role · limit 60/10 s per address". */
  readonly class: string;
  readonly features: readonly string[];
  readonly deviations: readonly DeviationReport[];
}

/**
 * One finding: a failure (or a SHOULD warning) with its impact, worst first in the report. The rules a cause
 * fails or stops are listed with it (issue #67).
 */
export interface Finding {
  /** The rule whose failure is the cause. */
  readonly rule: string;
  readonly level: Level;
  /** The impact of this failure: the rule's, or access when a refusal rule saw a 2xx (specs/report/findings.ts). */
  readonly impact: Impact;
  readonly verdict: 'fail' | 'warn';
  readonly remedy: string;
  /** The failure's one line (expected …, got …). */
  readonly reason?: string;
  /** The replay line of the first counterexample, credentials redacted. */
  readonly replay?: string;
  /** Rules this failure stopped (their `causedBy` names it): one finding, one cause (issue #67). */
  readonly consequences?: readonly string[];
}

export interface ProfileSummary {
  readonly name: string;
  /** Where the profile came from (a path), or 'bundled mock profile'. */
  readonly source: string;
  readonly endpoints: Readonly<
    Record<string, { path: string; method?: string; schemes?: readonly string[] }>
  >;
  /** Which credential kinds each identity has; never the credentials. */
  readonly identities: Readonly<Record<string, readonly string[]>>;
  readonly jwt?: {
    readonly alg: string;
    readonly signing: 'private-jwk' | 'shared-secret' | 'none';
    readonly publicJwk: boolean;
    readonly issuer?: string;
    readonly audience?: string;
    readonly leewaySeconds?: number;
  };
  readonly rateLimit?: { readonly limit: number; readonly windowSeconds: number; readonly banAfter?: number };
  /** The fault trigger's path and method; its header names only (values may be secrets). */
  readonly fault?: {
    readonly path: string;
    readonly method?: string;
    readonly headerNames: readonly string[];
  };
  readonly budget?: Readonly<Record<string, number>>;
  /** HTTPS settings; `insecure`: certificate verification was off for this run (the report says so loudly). */
  readonly tls?: { readonly ca: boolean; readonly clientCertificate: boolean; readonly insecure: boolean };
}

export interface ConformanceReport {
  readonly $schema: string;
  readonly schemaVersion: string;
  readonly suite: { readonly name: string; readonly version: string; readonly playwrightVersion: string };
  readonly catalogue: { readonly version: string; readonly rules: number };
  readonly target: {
    /** Without user info; 'bundled mock' when the suite started its own. */
    readonly baseUrl: string;
    readonly profile: ProfileSummary | null;
    /** The interface the profile declares; absent in reports before schema 1.3.0. */
    readonly declaration?: DeclarationReport;
  };
  readonly run: {
    /** Set by the CLI so it can tell this run's report from a stale one. */
    readonly id?: string;
    readonly startedAt: string;
    readonly endedAt: string;
    readonly durationMs: number;
    readonly seed: number;
    readonly budget?: number;
    readonly strict: boolean;
    /** 'n/m' of a sharded run that was not merged; null for a whole or merged run. */
    readonly shard: string | null;
    /** True when written by `merge-reports` over blob reports of several shards. */
    readonly merged: boolean;
    /** --only / --skip as given, or Playwright's --grep / --grep-invert. */
    readonly filter?: string;
    /** --max-skipped-must: most MUST rules that may go unchecked in a conformant run (absent: no limit). */
    readonly maxSkippedMust?: number;
    /** Playwright's own status of the run. */
    readonly status: 'passed' | 'failed' | 'timedout' | 'interrupted';
    /** Errors outside any test (global setup, a file that does not load…), redacted. */
    readonly errors: readonly string[];
    /** The run's set-up found the target not answering: no check ran (exit 3 in every route). */
    readonly unreachable?: boolean;
    /** The cost of politeness: what the run's scheduler sent, met and waited (specs/run/coordinator.ts). */
    readonly politeness?: Politeness;
  };
  readonly conformance: {
    /**
     * The headline: true when no rule failed, the run completed and no more MUST rules went unchecked than
     * run.maxSkippedMust allows. The CLI exits 0 exactly then.
     */
    readonly conformant: boolean;
    /**
     * conformant: every gated rule was checked and none failed. partial: none failed, but some gated rules
     * were skipped or not run (within run.maxSkippedMust). not-conformant: see `statement`.
     */
    readonly outcome?: Outcome;
    /** 'MUST and SHOULD' when SHOULD rules also all passed; 'MUST' when only MUST holds; null if not conformant. */
    readonly level: 'MUST and SHOULD' | 'MUST' | null;
    /** True when every MUST rule (and under --strict every SHOULD rule) was actually checked. */
    readonly complete: boolean;
    /** One sentence for people: "Conformant at MUST level", "Not conformant: 2 MUST rules fail". */
    readonly statement: string;
    /** Ids of rules whose verdict is fail, in catalogue order. */
    readonly failing: readonly string[];
  };
  readonly counts: Readonly<Record<Level, VerdictCounts>>;
  /** Failures and warnings, worst impact first (absent in reports before schema 1.3.0). */
  readonly findings?: readonly Finding[];
  readonly rules: readonly RuleReport[];
  /** Tests that point at no rule; a failure here is a suite bug and makes the run non-conformant. */
  readonly unattributed: readonly TestReport[];
  /** --waivers (or the profile's `waivers`): each entry and its state. */
  readonly waivers?: WaiversReport;
  /** --baseline: this run compared rule by rule with an earlier one. */
  readonly baseline?: BaselineReport;
  /** The CI gate over waivers and baseline; absent when neither was given (the verdict is then the gate). */
  readonly gate?: GateReport;
}
