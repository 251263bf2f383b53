/**
 * `gatecheck verify <statement> --key <public key> [--report <conformance.json>]`: exit 0 only when the
 * signature, the report's digest, the schema and the report's contents all hold, printing the verdict the
 * statement attests; otherwise one line naming what failed and exit 1. Files or a key that cannot be read or
 * used are bad usage (exit 2), like a bad flag.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { catalogueJson, loadCatalogue } from '../../specs/report/catalogue-source.ts';
import { LEVELS } from '../../specs/report/model.ts';
import { suiteVersion } from '../../specs/report/suite-version.ts';
import { EXIT, type ExitCode, UsageError } from '../exit-codes.ts';
import type { Io } from '../outcome.ts';
import { sha256Hex } from './digest.ts';
import { describeSource, type KeySource } from './key-source.ts';
import { KeyError, type PublicKeyInfo, publicKeyFrom, readKeyText } from './keys.ts';
import { type ConformancePredicate, REPORT_SUBJECT } from './statement.ts';
import { STATEMENT_SCHEMA_FILE } from './statement-schema.ts';
import { verifyStatement } from './verify.ts';

export interface VerifyOptions {
  /** Absolute path of the statement (conformance.intoto.jsonl). */
  readonly statement: string;
  readonly key: KeySource;
  /** Absolute path of the report; default conformance.json beside the statement. */
  readonly report?: string;
}

async function readOrUsage<T>(read: () => Promise<T>, what: string, hint = ''): Promise<T> {
  try {
    return await read();
  } catch (e) {
    throw new UsageError(
      `verify: cannot read ${what} (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})${hint}`,
    );
  }
}

async function publicKey(source: KeySource): Promise<PublicKeyInfo> {
  try {
    return await publicKeyFrom(await readKeyText(source), describeSource(source));
  } catch (e) {
    if (e instanceof KeyError) throw new UsageError(`--key: ${e.message}`);
    throw e;
  }
}

function attested(p: ConformancePredicate): string[] {
  const name = (p.profile.redacted as { name?: unknown }).name;
  const run = p.run;
  const merged =
    run.shardsMerged !== null ? `, merged from ${run.shardsMerged} shards` : run.merged ? ', merged' : '';
  return [
    `attests: ${p.verdict.statement}`,
    `  target ${p.target.baseUrl}, profile ${JSON.stringify(String(name ?? p.profile.source))} (sha256 ${p.profile.digest.sha256})`,
    `  gatecheck ${p.suite.version}, catalogue ${p.catalogue.version} (${p.catalogue.rules} rules, sha256 ${p.catalogue.digest.sha256})`,
    `  run ${run.startedAt} → ${run.endedAt}, seed ${run.seed}, strict ${run.strict ? 'yes' : 'no'}${run.shard ? `, shard ${run.shard}` : ''}${merged}${run.filter ? `, ${run.filter}` : ''}`,
    ...LEVELS.map((level) => {
      const c = p.counts[level];
      return `  ${level.padEnd(6)} ${c.pass} pass · ${c.fail} fail · ${c.warn} warn · ${c.skip} skip · ${c['not-run']} not run`;
    }),
  ];
}

export async function runVerify(options: VerifyOptions, io: Io): Promise<ExitCode> {
  const statementText = await readOrUsage(() => readFile(options.statement, 'utf8'), options.statement);
  const key = await publicKey(options.key);
  const reportFile = options.report ?? path.join(path.dirname(options.statement), REPORT_SUBJECT);
  const reportBytes = await readOrUsage(
    () => readFile(reportFile),
    `the report ${reportFile}`,
    options.report ? '' : '; name it with --report <conformance.json>',
  );
  const catalogue = await loadCatalogue();
  const result = verifyStatement({
    statementText,
    key,
    reportBytes,
    installed: { suiteVersion: suiteVersion(), catalogueSha256: sha256Hex(catalogueJson(catalogue)) },
  });
  if (!result.ok) {
    io.err(`gatecheck: verify failed: ${result.cause}\n`);
    return EXIT.nonConformant;
  }
  io.out(
    `gatecheck: verified: signed by key ${key.keyId} (${key.algorithm}); ${path.basename(reportFile)} has the attested SHA-256 ${result.reportSha256}; ` +
      `the statement matches ${STATEMENT_SCHEMA_FILE} and the report\n`,
  );
  for (const line of attested(result.statement.predicate)) io.out(`${line}\n`);
  for (const note of result.notes) io.out(`gatecheck: note: ${note}\n`);
  return EXIT.conformant;
}
