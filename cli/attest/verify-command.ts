/**
 * `gatecheck verify <statement> --key <public key> [--report <conformance.json>] [--allow-other-catalogue]`:
 * exit 0 only when everything verify.ts checks holds, printing the verdict the rules give; otherwise one line
 * naming what failed and exit 1. Files or a key that cannot be read or used are bad usage (exit 2), like a bad
 * flag. Every line printed passes through printable(): a signed string cannot drive the terminal.
 */
import path from 'node:path';
import { LEVELS } from '../../specs/report/model.ts';
import { EXIT, type ExitCode, UsageError } from '../exit-codes.ts';
import type { Io } from '../outcome.ts';
import { installed } from './installed.ts';
import { describeSource, type KeySource } from './key-source.ts';
import { KeyError, type PublicKeyInfo, publicKeyFrom, readKeyText } from './keys.ts';
import { LIMITS, mebibytes } from './limits.ts';
import { printable } from './printable.ts';
import { readBounded } from './read-bounded.ts';
import { type ConformancePredicate, REPORT_SUBJECT } from './statement.ts';
import { STATEMENT_SCHEMA_FILE } from './statement-schema.ts';
import { type Verification, verifyStatement } from './verify.ts';

export interface VerifyOptions {
  /** Absolute path of the statement (conformance.intoto.jsonl). */
  readonly statement: string;
  readonly key: KeySource;
  /** Absolute path of the report; default conformance.json beside the statement. */
  readonly report?: string;
  /** --allow-other-catalogue: judge a statement of another catalogue version by its report's levels. */
  readonly allowOtherCatalogue?: boolean;
}

/** The file's bytes; undefined when it is over `limit` (the caller says so); UsageError when unreadable. */
async function readOrUsage(file: string, limit: number, what: string, hint = ''): Promise<Buffer | number> {
  try {
    const read = await readBounded(file, limit);
    return read.ok ? read.bytes : read.size;
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

function attested(p: ConformancePredicate, verified: Extract<Verification, { ok: true }>): string[] {
  const name = (p.profile.redacted as { name?: unknown }).name;
  const run = p.run;
  const merged =
    run.shardsMerged !== null ? `, merged from ${run.shardsMerged} shards` : run.merged ? ', merged' : '';
  const { conformance, counts } = verified.recomputed;
  return [
    // The sentence the rules give (recompute.ts), never the signed text.
    `attests: ${conformance.statement}`,
    `  target ${p.target.baseUrl}, profile ${JSON.stringify(String(name ?? p.profile.source))} (sha256 ${p.profile.digest.sha256})`,
    `  gatecheck ${p.suite.version}, catalogue ${p.catalogue.version} (${p.catalogue.rules} rules, sha256 ${p.catalogue.digest.sha256})`,
    `  run ${run.startedAt} → ${run.endedAt}, seed ${run.seed}, strict ${run.strict ? 'yes' : 'no'}${run.shard ? `, shard ${run.shard}` : ''}${merged}${run.filter ? `, ${run.filter}` : ''}`,
    ...LEVELS.map((level) => {
      const c = counts[level];
      return `  ${level.padEnd(6)} ${c.pass} pass · ${c.fail} fail · ${c.warn} warn · ${c.skip} skip · ${c['not-run']} not run`;
    }),
  ];
}

export async function runVerify(options: VerifyOptions, io: Io): Promise<ExitCode> {
  const out = (line: string) => io.out(`${printable(line)}\n`);
  const failed = (cause: string) => {
    io.err(`${printable(`gatecheck: verify failed: ${cause}`)}\n`);
    return EXIT.nonConformant;
  };
  const statement = await readOrUsage(options.statement, LIMITS.statementBytes, options.statement);
  if (typeof statement === 'number')
    return failed(
      `statement: the file is ${mebibytes(statement)}; at most ${mebibytes(LIMITS.statementBytes)} is read (gatecheck writes a few KiB)`,
    );
  const key = await publicKey(options.key);
  const reportFile = options.report ?? path.join(path.dirname(options.statement), REPORT_SUBJECT);
  const reportBytes = await readOrUsage(
    reportFile,
    LIMITS.reportBytes,
    `the report ${reportFile}`,
    options.report ? '' : '; name it with --report <conformance.json>',
  );
  if (typeof reportBytes === 'number')
    return failed(
      `report: the file is ${mebibytes(reportBytes)}; at most ${mebibytes(LIMITS.reportBytes)} is read`,
    );
  const result = verifyStatement({
    statementText: statement.toString('utf8'),
    key,
    reportBytes,
    installed: await installed(),
    allowOtherCatalogue: options.allowOtherCatalogue === true,
  });
  if (!result.ok) return failed(result.cause);
  if (key.fromPrivateKey)
    out(
      `gatecheck: note: --key holds a private key; its public half was used (give verifiers the public key, keep the private one secret)`,
    );
  out(
    `gatecheck: verified: signed by key ${key.keyId} (${key.algorithm}); ${path.basename(reportFile)} has the attested SHA-256 ${result.reportSha256}; ` +
      `the statement matches ${STATEMENT_SCHEMA_FILE}, the report and the rule catalogue`,
  );
  for (const line of attested(result.statement.predicate, result)) out(line);
  for (const note of result.notes) out(`gatecheck: note: ${note}`);
  return EXIT.conformant;
}
