/**
 * `--sign-key` (a run, or `merge-reports`): the key is read and checked before anything is sent, so a bad key
 * is exit 2 like any bad flag; once the run has written its report, the report is signed and the statement
 * written beside it (conformance.intoto.jsonl), then summary.md and conformance.html are written again to name
 * it. conformance.json itself is left as the reporter wrote it: it is what the statement's subject digests.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { catalogueJson, loadCatalogue } from '../../specs/report/catalogue-source.ts';
import type { ConformanceReport } from '../../specs/report/model.ts';
import { safeUrl } from '../../specs/report/profile-summary.ts';
import { STATEMENT_FILE, type StatementNote } from '../../specs/report/statement-note.ts';
import { displayPath } from '../../specs/report/text.ts';
import { REPORT_FILES, writeRenderings } from '../../specs/report/write.ts';
import { UsageError } from '../exit-codes.ts';
import { canonicalSha256, sha256Hex } from './digest.ts';
import { envelopeLine, PAYLOAD_TYPE } from './envelope.ts';
import { describeSource, type KeySource } from './key-source.ts';
import { KeyError, readKeyText, type SigningKey, signingKeyFrom } from './keys.ts';
import { redactProfile } from './redact-profile.ts';
import { signEnvelope } from './sign.ts';
import { buildStatement } from './statement.ts';

export type SignResult =
  | { readonly ok: true; readonly lines: readonly string[] }
  | { readonly ok: false; readonly line: string }
  /** No report of this run to sign: the run's own outcome says why. */
  | { readonly ok: 'no-report' };

export interface RunSigner {
  sign(reportDir: string, runId: string): Promise<SignResult>;
}

export interface SignerOptions {
  readonly source: KeySource;
  /** The profile the run used (already validated): embedded redacted. */
  readonly profilePath: string;
  /** Blob reports merge-reports combines; null for a run. */
  readonly shardsMerged: number | null;
  readonly env?: NodeJS.ProcessEnv;
}

/** Throws UsageError (exit 2) naming --sign-key and what is wrong with the key. */
export async function prepareSigner(options: SignerOptions): Promise<RunSigner> {
  const env = options.env ?? process.env;
  let key: SigningKey;
  try {
    key = await signingKeyFrom(await readKeyText(options.source, env), describeSource(options.source));
  } catch (e) {
    if (e instanceof KeyError) throw new UsageError(`--sign-key: ${e.message}`);
    throw e;
  }
  const rawProfile = JSON.parse(await readFile(options.profilePath, 'utf8')) as unknown;
  return { sign: (reportDir, runId) => signReport(reportDir, runId, key, rawProfile, options, env) };
}

/**
 * The profile as the run used it: a baseUrl that --base-url or BASE_URL overrode is embedded as the URL the
 * run went to (the report's, without user information), so `verify` can hold the profile's target to the
 * report's.
 */
function targetOf(redacted: unknown, report: ConformanceReport): unknown {
  const profile = redacted as { baseUrl?: unknown };
  if (typeof profile.baseUrl !== 'string' || safeUrl(profile.baseUrl) === report.target.baseUrl)
    return redacted;
  return { ...profile, baseUrl: report.target.baseUrl };
}

async function signReport(
  reportDir: string,
  runId: string,
  key: SigningKey,
  rawProfile: unknown,
  options: SignerOptions,
  env: NodeJS.ProcessEnv,
): Promise<SignResult> {
  let bytes: Buffer;
  let report: ConformanceReport;
  try {
    bytes = await readFile(path.join(reportDir, REPORT_FILES.json));
    report = JSON.parse(bytes.toString('utf8')) as ConformanceReport;
  } catch {
    return { ok: 'no-report' };
  }
  if (report.run?.id !== runId) return { ok: 'no-report' };

  const catalogue = await loadCatalogue();
  if (catalogue.version !== report.catalogue.version) {
    return {
      ok: false,
      line: `gatecheck: not signed: the report was made with catalogue ${report.catalogue.version}, this gatecheck has ${catalogue.version}`,
    };
  }
  const redacted = targetOf(redactProfile(rawProfile, env), report);
  const reportedName = report.target.profile?.name;
  const profileName = (redacted as { name?: unknown }).name;
  if (reportedName !== undefined && reportedName !== profileName) {
    return {
      ok: false,
      line: `gatecheck: not signed: the report was made with profile "${reportedName}", the profile given is "${String(profileName)}"`,
    };
  }

  const reportSha256 = sha256Hex(bytes);
  const statement = buildStatement(report, reportSha256, {
    catalogueDigest: sha256Hex(catalogueJson(catalogue)),
    profile: {
      source: report.target.profile?.source ?? path.basename(options.profilePath),
      digest: { sha256: canonicalSha256(redacted) },
      redacted,
    },
    shardsMerged: options.shardsMerged,
  });
  const envelope = signEnvelope(PAYLOAD_TYPE, Buffer.from(JSON.stringify(statement), 'utf8'), key);
  const file = path.join(reportDir, STATEMENT_FILE);
  await writeFile(file, envelopeLine(envelope));
  const note: StatementNote = {
    file: STATEMENT_FILE,
    keyId: key.keyId,
    algorithm: key.algorithm,
    reportSha256,
  };
  await writeRenderings(reportDir, report, note);
  return {
    ok: true,
    lines: [
      `gatecheck: signed statement ${displayPath(file)}: key ${key.keyId} (${key.algorithm}), conformance.json sha256 ${reportSha256}`,
      `gatecheck: check it with: npx gatecheck verify ${displayPath(file)} --key <public key>`,
    ],
  };
}
