/**
 * Everything `gatecheck verify` checks, in order, each failure one line naming its cause:
 * 1. signature — a DSSE envelope in the file verifies with the given key (open-envelope.ts);
 * 2. statement — in-toto Statement v1 payload with gatecheck's predicate type;
 * 3. schema — the statement matches conformance-statement.schema.json (unknown or missing fields fail);
 * 4. profile — the embedded redacted profile has the digest the predicate states;
 * 5. report — SHA-256 of the report is a subject's digest, and the predicate restates that report (its
 *    verdict, counts, rules, run and politeness), so a signature cannot lend a report another verdict;
 * 6. catalogue — when the statement names the installed gatecheck version, its catalogue digest is this
 *    installation's (a run on a changed catalogue shows); another version is noted, not judged.
 */
import type { ConformanceReport } from '../../specs/report/model.ts';
import { firstDifference } from './compare.ts';
import { canonicalSha256, sha256Hex } from './digest.ts';
import { envelopesOf, PAYLOAD_TYPE } from './envelope.ts';
import type { PublicKeyInfo } from './keys.ts';
import { type Opened, openEnvelope } from './open-envelope.ts';
import { PREDICATE_TYPE, reportFacts, STATEMENT_TYPE, type Statement } from './statement.ts';
import { statementSchemaError } from './statement-schema.ts';

export interface VerifyInput {
  readonly statementText: string;
  readonly key: PublicKeyInfo;
  readonly reportBytes: Uint8Array;
  /** This installation's version and catalogue digest. */
  readonly installed: { readonly suiteVersion: string; readonly catalogueSha256: string };
}

export type Verification =
  | {
      readonly ok: true;
      readonly statement: Statement;
      readonly reportSha256: string;
      /** What was not judged, and why (another gatecheck version's catalogue). */
      readonly notes: readonly string[];
    }
  | { readonly ok: false; readonly cause: string };

const fail = (cause: string): Verification => ({ ok: false, cause });

function shown(value: unknown): string {
  return value === undefined ? '(absent)' : JSON.stringify(value);
}

function opened(text: string, key: PublicKeyInfo): Opened {
  const envelopes = envelopesOf(text);
  if (envelopes.length === 0) return { ok: false, cause: 'statement: the file holds no DSSE envelope' };
  let first: Opened | undefined;
  for (const envelope of envelopes) {
    const result = openEnvelope(envelope, key);
    if (result.ok) return result;
    first ??= result;
  }
  return first as Opened;
}

export function verifyStatement(input: VerifyInput): Verification {
  const open = opened(input.statementText, input.key);
  if (!open.ok) return fail(open.cause);
  // DSSE: "Reject if PAYLOAD_TYPE is not a supported type", then parse the verified bytes, never the envelope again.
  if (open.payloadType !== PAYLOAD_TYPE)
    return fail(`statement: payloadType is ${shown(open.payloadType)}, expected "${PAYLOAD_TYPE}"`);
  let statement: Record<string, unknown>;
  try {
    statement = JSON.parse(open.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return fail('statement: the signed payload is not JSON');
  }
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

  const reportSha256 = sha256Hex(input.reportBytes);
  if (!valid.subject.some((s) => s.digest.sha256 === reportSha256)) {
    const attested = valid.subject.map((s) => `${s.name} ${s.digest.sha256}`).join(', ');
    return fail(
      `report: its SHA-256 is ${reportSha256}, the statement attests ${attested}: the report was changed after signing, or it is another run's`,
    );
  }
  let report: ConformanceReport;
  try {
    report = JSON.parse(Buffer.from(input.reportBytes).toString('utf8')) as ConformanceReport;
  } catch {
    return fail('report: the attested report is not JSON');
  }
  let difference: ReturnType<typeof firstDifference>;
  try {
    difference = firstDifference(reportFacts(report), {
      ...predicate,
      catalogue: { version: predicate.catalogue.version, rules: predicate.catalogue.rules },
      run: { ...predicate.run, shardsMerged: undefined },
      profile: undefined,
    });
  } catch {
    return fail('report: the attested report is not a gatecheck conformance report');
  }
  if (difference) {
    return fail(
      `report: the statement's predicate${difference.path} is ${shown(difference.actual)}, the report says ${shown(difference.expected)}`,
    );
  }

  const notes: string[] = [];
  if (predicate.suite.version === input.installed.suiteVersion) {
    if (predicate.catalogue.digest.sha256 !== input.installed.catalogueSha256) {
      return fail(
        `catalogue: the statement's catalogue digest ${predicate.catalogue.digest.sha256} is not gatecheck ${input.installed.suiteVersion}'s (${input.installed.catalogueSha256}): the run used a changed rule catalogue`,
      );
    }
  } else {
    notes.push(
      `catalogue digest not compared: this is gatecheck ${input.installed.suiteVersion}, the statement names ${predicate.suite.version} (npx gatecheck@${predicate.suite.version} rules --json | sha256sum gives its digest)`,
    );
  }
  return { ok: true, statement: valid, reportSha256, notes };
}
