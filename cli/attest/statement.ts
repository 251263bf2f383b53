/**
 * The conformance statement: an in-toto Statement v1 (in-toto attestation spec v1, statement.md) whose subject
 * is conformance.json by its SHA-256 and whose predicate (type PREDICATE_TYPE, schema
 * fixtures/schemas/conformance-statement.schema.json) says what the report concluded and how it was made.
 * Everything in the predicate comes from the report, except what the report cannot hold about itself: the
 * catalogue's digest, the redacted profile and its digest, and how many shard reports were merged.
 */

import type {
  ConformanceReport,
  DeclarationReport,
  Outcome,
  Verdict,
  VerdictCounts,
} from '../../specs/report/model.ts';
import { outcomeOf } from '../../specs/report/outcome.ts';
import type { Level } from '../../specs/rules/types.ts';

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
/** gatecheck's own predicate type (a TypeURI: versioned; the namespace of the project's schema $ids). */
export const PREDICATE_TYPE = 'https://gatecheck.dev/attestation/conformance/v1';
export const REPORT_SUBJECT = 'conformance.json';

export interface DigestSet {
  readonly sha256: string;
}

export interface ConformancePredicate {
  readonly suite: { readonly name: string; readonly version: string };
  readonly catalogue: { readonly version: string; readonly rules: number; readonly digest: DigestSet };
  readonly target: { readonly baseUrl: string };
  /** The interface the run judged the target as (the report's `target.declaration`); null in older reports. */
  readonly declaration: DeclarationReport | null;
  readonly profile: {
    /** The profile's file name as the report shows it, or `bundled mock profile`. */
    readonly source: string;
    /** SHA-256 of the RFC 8785 serialization of `redacted`. */
    readonly digest: DigestSet;
    readonly redacted: unknown;
  };
  readonly run: {
    readonly id: string | null;
    readonly startedAt: string;
    readonly endedAt: string;
    readonly seed: number;
    readonly strict: boolean;
    readonly budget: number | null;
    readonly filter: string | null;
    readonly maxSkippedMust: number | null;
    readonly shard: string | null;
    readonly merged: boolean;
    /** Blob reports `merge-reports` combined; null for a run that was not merged. */
    readonly shardsMerged: number | null;
    readonly status: ConformanceReport['run']['status'];
  };
  readonly verdict: {
    readonly outcome: Outcome;
    readonly conformant: boolean;
    readonly level: ConformanceReport['conformance']['level'];
    readonly complete: boolean;
    readonly statement: string;
  };
  readonly counts: Readonly<Record<Level, VerdictCounts>>;
  readonly rules: readonly { readonly id: string; readonly verdict: Verdict }[];
  /** The report's `run.politeness`, by value; null when the report has none. */
  readonly politeness: ConformanceReport['run']['politeness'] | null;
}

export interface Statement {
  readonly _type: typeof STATEMENT_TYPE;
  readonly subject: readonly { readonly name: string; readonly digest: DigestSet }[];
  readonly predicateType: typeof PREDICATE_TYPE;
  readonly predicate: ConformancePredicate;
}

/** What the signer adds to the report's facts. */
export interface SignerFacts {
  readonly catalogueDigest: string;
  readonly profile: ConformancePredicate['profile'];
  readonly shardsMerged: number | null;
}

/**
 * The predicate's fields that restate the report: the signer writes them from conformance.json, and `verify`
 * recomputes them from the report it is given and compares (a statement cannot claim another verdict than
 * the report it names).
 */
export function reportFacts(report: ConformanceReport) {
  const { run, conformance } = report;
  return {
    suite: { name: report.suite.name, version: report.suite.version },
    catalogue: { version: report.catalogue.version, rules: report.catalogue.rules },
    target: { baseUrl: report.target.baseUrl },
    declaration: report.target.declaration ?? null,
    run: {
      id: run.id ?? null,
      startedAt: run.startedAt,
      endedAt: run.endedAt,
      seed: run.seed,
      strict: run.strict,
      budget: run.budget ?? null,
      filter: run.filter ?? null,
      maxSkippedMust: run.maxSkippedMust ?? null,
      shard: run.shard,
      merged: run.merged,
      status: run.status,
    },
    verdict: {
      outcome: outcomeOf(conformance),
      conformant: conformance.conformant,
      level: conformance.level,
      complete: conformance.complete,
      statement: conformance.statement,
    },
    counts: report.counts,
    rules: report.rules.map(({ id, verdict }) => ({ id, verdict })),
    politeness: run.politeness ?? null,
  };
}

export function buildStatement(
  report: ConformanceReport,
  reportSha256: string,
  signer: SignerFacts,
): Statement {
  const facts = reportFacts(report);
  return {
    _type: STATEMENT_TYPE,
    subject: [{ name: REPORT_SUBJECT, digest: { sha256: reportSha256 } }],
    predicateType: PREDICATE_TYPE,
    predicate: {
      suite: facts.suite,
      catalogue: { ...facts.catalogue, digest: { sha256: signer.catalogueDigest } },
      target: facts.target,
      declaration: facts.declaration,
      profile: signer.profile,
      run: { ...facts.run, shardsMerged: signer.shardsMerged },
      verdict: facts.verdict,
      counts: facts.counts,
      rules: facts.rules,
      politeness: facts.politeness,
    },
  };
}
