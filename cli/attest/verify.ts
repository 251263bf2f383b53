/**
 * Everything `gatecheck verify` checks, in order, each failure one line naming its cause (docs/cli.md
 * "gatecheck verify" lists the same steps):
 * 1. envelope — one DSSE envelope in the file, no duplicate member, within limits.ts's signature count and
 *    payload size, all checked before any signature is tried;
 * 2. signature — a signature of the envelope verifies with the given key (open-envelope.ts);
 * 3. statement — the verified payload is JSON without a duplicate member, an in-toto Statement v1 of
 *    gatecheck's predicate type;
 * 4. schema — the statement matches conformance-statement.schema.json: unknown or missing fields fail at every
 *    level, exactly one subject, named conformance.json;
 * 5. profile — the embedded redacted profile has the digest the predicate states and no member its schema
 *    (profile.schema.json) does not know;
 * 6. report — its SHA-256 is the subject's; it is JSON without a duplicate member and matches its own schema
 *    (conformance.schema.json); the predicate restates it (verdict, counts, rules, run, politeness); the
 *    embedded profile is the report's (name, source, endpoints, base URL);
 * 7. catalogue — the statement's catalogue version is this installation's: then its digest, its rule count and
 *    its exact rule ids are the installed catalogue's. Another version fails unless allowed, and is noted;
 * 8. verdict — outcome and per-level counts recomputed from the rule list with the catalogue's levels
 *    (recompute.ts) are the ones stated, and the stated sentence says the same outcome. The sentence shown is
 *    the recomputed one, never the signed text.
 * 9. declaration — the class, features and deviations recomputed from the embedded redacted profile
 *    (specs/declaration/) are the ones stated, and every rule the statement calls not applicable is one that
 *    declaration rules out by the installed catalogue's `requires` (a statement that calls an applicable rule
 *    not applicable is refused).
 */
import type { ConformanceReport } from '../../specs/report/model.ts';
import { safeUrl, summarizeProfile } from '../../specs/report/profile-summary.ts';
import type { Level, Requirement } from '../../specs/rules/types.ts';
import { firstDifference } from './compare.ts';
import { declarationMismatch } from './declaration-check.ts';
import { canonicalSha256, sha256Hex } from './digest.ts';
import { envelopeLineError, envelopeOf, PAYLOAD_TYPE } from './envelope.ts';
import type { PublicKeyInfo } from './keys.ts';
import { envelopeOverLimit, openEnvelope } from './open-envelope.ts';
import { unknownProfileMember } from './profile-members.ts';
import { outcomeHolds, outcomeOfSentence, type Recomputed, recompute } from './recompute.ts';
import { reportSchemaError } from './report-schema.ts';
import { PREDICATE_TYPE, reportFacts, STATEMENT_TYPE, type Statement } from './statement.ts';
import { statementSchemaError } from './statement-schema.ts';
import { parseStrictJson } from './strict-json.ts';

export interface InstalledCatalogue {
  readonly version: string;
  /** SHA-256 of `gatecheck rules --json`. */
  readonly sha256: string;
  /** Rule ids in catalogue order, with their levels. */
  readonly rules: readonly {
    readonly id: string;
    readonly level: Level;
    readonly requires?: readonly Requirement[];
  }[];
}

export interface VerifyInput {
  readonly statementText: string;
  readonly key: PublicKeyInfo;
  readonly reportBytes: Uint8Array;
  /** This installation's version and rule catalogue. */
  readonly installed: { readonly suiteVersion: string; readonly catalogue: InstalledCatalogue };
  /** --allow-other-catalogue: a statement of another catalogue version is judged with the report's levels. */
  readonly allowOtherCatalogue?: boolean;
}

export type Verification =
  | {
      readonly ok: true;
      readonly statement: Statement;
      readonly reportSha256: string;
      /** The verdict and counts as recomputed (what is shown). */
      readonly recomputed: Recomputed;
      /** What was not judged, and why (another catalogue version). */
      readonly notes: readonly string[];
    }
  | { readonly ok: false; readonly cause: string };

const fail = (cause: string): Verification => ({ ok: false, cause });

function shown(value: unknown): string {
  return value === undefined ? '(absent)' : JSON.stringify(value);
}

/** Step 6's last part: the embedded profile is the one the report was made with. */
function profileMismatch(statement: Statement, report: ConformanceReport): string | undefined {
  const { profile } = statement.predicate;
  const summary = report.target.profile;
  if (summary === null) return 'profile: the report names no profile, so the embedded one cannot be checked';
  const redacted = profile.redacted as { name?: unknown; baseUrl?: unknown };
  if (redacted.name !== summary.name)
    return `profile: the embedded profile is ${shown(redacted.name)}, the report's is ${shown(summary.name)}`;
  if (profile.source !== summary.source)
    return `profile: the statement's profile source is ${shown(profile.source)}, the report's is ${shown(summary.source)}`;
  const endpoints = firstDifference(summary.endpoints, summarizeProfile(redacted, profile.source).endpoints);
  if (endpoints)
    return `profile: the embedded profile's endpoints${endpoints.path} is ${shown(endpoints.actual)}, the report's ${shown(endpoints.expected)}`;
  // The run's target: a profile's baseUrl the run overrode is embedded as the URL it used (sign-run.ts).
  if (typeof redacted.baseUrl === 'string' && safeUrl(redacted.baseUrl) !== report.target.baseUrl)
    return `profile: the embedded profile targets ${shown(safeUrl(redacted.baseUrl))}, the report ${shown(report.target.baseUrl)}`;
  return undefined;
}

/** Step 7 when the versions match: the rule ids, in order, are the catalogue's. */
function ruleIdsMismatch(
  rules: readonly { readonly id: string }[],
  catalogue: InstalledCatalogue,
): string | undefined {
  const expected = catalogue.rules.map((r) => r.id);
  const got = rules.map((r) => r.id);
  const known = new Set(expected);
  const seen = new Set<string>();
  const head = `rules: ${got.length} rule${got.length === 1 ? '' : 's'}, catalogue ${catalogue.version} has ${expected.length}`;
  for (const id of got) {
    if (!known.has(id)) return `${head}: ${shown(id)} is not one of its rules`;
    if (seen.has(id)) return `${head}: ${shown(id)} is listed twice`;
    seen.add(id);
  }
  const missing = expected.find((id) => !seen.has(id));
  if (missing !== undefined) return `${head}: ${shown(missing)} is missing`;
  const moved = got.findIndex((id, i) => id !== expected[i]);
  if (moved !== -1) return `${head}: ${shown(got[moved])} is not in catalogue order`;
  return undefined;
}

/** Step 8: the stated verdict and counts against the recomputed ones. */
function verdictMismatch(statement: Statement, again: Recomputed): string | undefined {
  const { verdict, counts } = statement.predicate;
  const c = again.conformance;
  const countDiff = firstDifference(again.counts, counts);
  if (countDiff)
    return `counts: the statement's counts${countDiff.path} is ${shown(countDiff.actual)}, the rule list gives ${shown(countDiff.expected)}`;
  const because = c.outcome === 'conformant' ? '' : ` (${c.statement})`;
  for (const field of ['outcome', 'conformant', 'level', 'complete'] as const) {
    if (verdict[field] !== c[field])
      return `verdict: the statement says ${field} ${shown(verdict[field])}, the rules give ${shown(c[field])}${because}`;
  }
  if (outcomeOfSentence(verdict.statement) !== c.outcome)
    return `verdict: the statement's sentence ${shown(verdict.statement)} does not say ${shown(c.outcome)}, what the rules give${because}`;
  return undefined;
}

export function verifyStatement(input: VerifyInput): Verification {
  const bundle = envelopeOf(input.statementText);
  if ('cause' in bundle) return fail(bundle.cause);
  const over = envelopeOverLimit(bundle.envelope);
  if (over) return fail(over);
  const strict = envelopeLineError(bundle.line, bundle.number);
  if (strict) return fail(strict);
  const open = openEnvelope(bundle.envelope, input.key);
  if (!open.ok) return fail(open.cause);
  // DSSE: "Reject if PAYLOAD_TYPE is not a supported type", then parse the verified bytes, never the envelope again.
  if (open.payloadType !== PAYLOAD_TYPE)
    return fail(`statement: payloadType is ${shown(open.payloadType)}, expected "${PAYLOAD_TYPE}"`);
  const payload = parseStrictJson(open.body.toString('utf8'));
  if (!payload.ok) return fail(`statement: the signed payload ${payload.cause}`);
  const statement = payload.value as Record<string, unknown> | null;
  if (statement?._type !== STATEMENT_TYPE)
    return fail(`statement: _type is ${shown(statement?._type)}, expected "${STATEMENT_TYPE}"`);
  if (statement.predicateType !== PREDICATE_TYPE) {
    return fail(
      `statement: predicateType is ${shown(statement.predicateType)}, not gatecheck's "${PREDICATE_TYPE}"`,
    );
  }
  const schemaError = statementSchemaError(statement);
  if (schemaError) return fail(`schema: ${schemaError} (conformance-statement.schema.json)`);
  const valid = statement as unknown as Statement;
  const { predicate } = valid;

  if (canonicalSha256(predicate.profile.redacted) !== predicate.profile.digest.sha256)
    return fail('profile: the embedded redacted profile does not have the digest the predicate states');
  const unknownMember = unknownProfileMember(predicate.profile.redacted);
  if (unknownMember)
    return fail(
      `profile: the embedded profile's ${unknownMember} is not a known field (profile.schema.json)`,
    );

  const reportSha256 = sha256Hex(input.reportBytes);
  const [subject] = valid.subject;
  if (subject?.digest.sha256 !== reportSha256) {
    return fail(
      `report: its SHA-256 is ${reportSha256}, the statement attests ${subject?.name} ${subject?.digest.sha256}: the report was changed after signing, or it is another run's`,
    );
  }
  const parsedReport = parseStrictJson(Buffer.from(input.reportBytes).toString('utf8'));
  if (!parsedReport.ok) return fail(`report: the attested report ${parsedReport.cause}`);
  const reportError = reportSchemaError(parsedReport.value);
  if (reportError) return fail(`report: ${reportError} (conformance.schema.json)`);
  const report = parsedReport.value as ConformanceReport;
  const difference = firstDifference(reportFacts(report), {
    ...predicate,
    catalogue: { version: predicate.catalogue.version, rules: predicate.catalogue.rules },
    run: { ...predicate.run, shardsMerged: undefined },
    profile: undefined,
  });
  if (difference) {
    return fail(
      `report: the statement's predicate${difference.path} is ${shown(difference.actual)}, the report says ${shown(difference.expected)}`,
    );
  }
  const profile = profileMismatch(valid, report);
  if (profile) return fail(profile);

  const notes: string[] = [];
  const { catalogue } = input.installed;
  let levelOf: (id: string) => Level | undefined;
  if (predicate.catalogue.version === catalogue.version) {
    if (predicate.catalogue.digest.sha256 !== catalogue.sha256) {
      return fail(
        `catalogue: the statement's catalogue ${catalogue.version} has digest ${predicate.catalogue.digest.sha256}, this gatecheck's ${catalogue.version} has ${catalogue.sha256}: the run used a changed rule catalogue`,
      );
    }
    if (predicate.catalogue.rules !== catalogue.rules.length) {
      return fail(
        `catalogue: the statement says catalogue ${catalogue.version} has ${predicate.catalogue.rules} rules, it has ${catalogue.rules.length}`,
      );
    }
    const ids = ruleIdsMismatch(predicate.rules, catalogue);
    if (ids) return fail(ids);
    const levels = new Map(catalogue.rules.map((r) => [r.id, r.level]));
    // The report's renderings show its own levels: they must be the catalogue's.
    const relabelled = report.rules.find((r) => levels.get(r.id) !== r.level);
    if (relabelled)
      return fail(
        `rules: the report gives ${shown(relabelled.id)} level ${relabelled.level}, catalogue ${catalogue.version} says ${levels.get(relabelled.id)}`,
      );
    levelOf = (id) => levels.get(id);
  } else {
    const other = `the statement was made with catalogue ${predicate.catalogue.version} (gatecheck ${predicate.suite.version}), this is catalogue ${catalogue.version} (gatecheck ${input.installed.suiteVersion})`;
    if (!input.allowOtherCatalogue) {
      return fail(
        `catalogue: ${other}: its rules cannot be checked here; verify with gatecheck@${predicate.suite.version}, or pass --allow-other-catalogue to judge it by the levels its report states`,
      );
    }
    notes.push(
      `${other}: rule ids and catalogue digest not compared, levels taken from the report (--allow-other-catalogue); npx gatecheck@${predicate.suite.version} verify checks them`,
    );
    const levels = new Map(report.rules.map((r) => [r.id, r.level]));
    levelOf = (id) => levels.get(id);
  }

  const declared = declarationMismatch(
    valid.predicate,
    predicate.catalogue.version === catalogue.version ? catalogue.rules : undefined,
  );
  if (declared) return fail(declared);

  const again = recompute(predicate.rules, levelOf, report, predicate.declaration?.deviations ?? []);
  const invariant = outcomeHolds(predicate.rules, again);
  if (invariant) return fail(invariant);
  const verdict = verdictMismatch(valid, again);
  if (verdict) return fail(verdict);
  if (firstDifference(again.conformance.failing, report.conformance.failing))
    return fail(
      `report: conformance.failing is ${shown(report.conformance.failing)}, the rules give ${shown(again.conformance.failing)}`,
    );
  return { ok: true, statement: valid, reportSha256, recomputed: again, notes };
}
