/**
 * What a statement at each of verify's limits (cli/attest/limits.ts) costs its verifier: each case is a fresh
 * process (verify-limits-child.ts) that loads the CLI, then times one `gatecheck verify` and reports the
 * process's peak resident memory (Node's and tsx's own included: the baseline row shows them), as a Markdown
 * table. Issue #42 asks for each under 1 s and 200 MB.
 *
 *   npx tsx bench/verify-limits.ts
 *
 * The cases: a statement file just over its limit; one at it (an envelope with the largest payload and the
 * most signatures, all bogus, padded to the limit with lines the bundle reader ignores); the payload and the
 * signature count one over; a report just over its limit; and the key holder's worst case, a report at its
 * limit that is attested (signed, so every check runs over it: hash, duplicate scan, parse, schema).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { envelopeLine, PAYLOAD_TYPE } from '../cli/attest/envelope.ts';
import { LIMITS } from '../cli/attest/limits.ts';
import { signEnvelope } from '../cli/attest/sign.ts';
import { type Json, reportBytes, statementFor, testKey } from '../tests/attest/signing.ts';
import { ROOT } from '../tests/report/synthetic.ts';

const bogusSignatures = (n: number) =>
  Array.from({ length: n }, () => ({ sig: randomBytes(64).toString('base64') }));

/** The largest payload the envelope may carry, base64 (RFC 4648 §4: 4 characters per 3 bytes). */
function payloadOf(bytes: number): string {
  return Buffer.alloc(bytes, 0x20).toString('base64');
}

/** A report padded to `size` bytes with evidence-like text in one rule's reason (the schema allows it). */
function reportOfSize(size: number): Buffer {
  const withReason = (reason: string) =>
    reportBytes((r: Json) => {
      r.rules[0].reason = reason;
    });
  return withReason('x'.repeat(size - withReason('').length));
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-verify-limits-'));
  try {
    const key = await testKey();
    await writeFile(path.join(dir, 'vendor.pub'), key.publicPem);
    const small = reportBytes();
    const statement = await statementFor(small);
    const cases: { name: string; files: Record<string, Buffer | string> }[] = [];
    const at = (name: string, files: Record<string, Buffer | string>) => cases.push({ name, files });

    at('a valid statement (baseline)', {
      statement: envelopeLine(
        signEnvelope(PAYLOAD_TYPE, Buffer.from(JSON.stringify(statement)), key.signing),
      ),
      report: small,
    });
    const atLimit = envelopeLine({
      payload: payloadOf(LIMITS.payloadBytes),
      payloadType: PAYLOAD_TYPE,
      signatures: bogusSignatures(LIMITS.signatures),
    });
    const filler = LIMITS.statementBytes - atLimit.length;
    at(
      `statement file at ${LIMITS.statementBytes} bytes: ${LIMITS.signatures} bogus signatures over a ${LIMITS.payloadBytes}-byte payload`,
      {
        statement: `${atLimit}${`${'#'.repeat(1023)}\n`.repeat(Math.floor(filler / 1024))}${'#'.repeat(filler % 1024)}`,
        report: small,
      },
    );
    at(`statement file one byte over (${LIMITS.statementBytes + 1} bytes)`, {
      statement: Buffer.alloc(LIMITS.statementBytes + 1, 0x20),
      report: small,
    });
    at(`payload one byte over (${LIMITS.payloadBytes + 1} bytes)`, {
      statement: envelopeLine({
        payload: payloadOf(LIMITS.payloadBytes + 1),
        payloadType: PAYLOAD_TYPE,
        signatures: bogusSignatures(1),
      }),
      report: small,
    });
    at(`${LIMITS.signatures + 1} signatures (one over)`, {
      statement: envelopeLine({
        payload: payloadOf(1024),
        payloadType: PAYLOAD_TYPE,
        signatures: bogusSignatures(LIMITS.signatures + 1),
      }),
      report: small,
    });
    at(`report one byte over (${LIMITS.reportBytes + 1} bytes)`, {
      statement: envelopeLine(
        signEnvelope(PAYLOAD_TYPE, Buffer.from(JSON.stringify(statement)), key.signing),
      ),
      report: Buffer.alloc(LIMITS.reportBytes + 1, 0x20),
    });
    const big = reportOfSize(LIMITS.reportBytes);
    at(`report at ${LIMITS.reportBytes} bytes, attested by a valid signature (every check runs over it)`, {
      statement: envelopeLine(
        signEnvelope(PAYLOAD_TYPE, Buffer.from(JSON.stringify(await statementFor(big))), key.signing),
      ),
      report: big,
    });

    console.log('| case | exit | verify s | peak RSS MB | first line |');
    console.log('| --- | --- | --- | --- | --- |');
    for (const c of cases) {
      const statementFile = path.join(dir, 'conformance.intoto.jsonl');
      const reportFile = path.join(dir, 'conformance.json');
      await writeFile(statementFile, c.files.statement ?? '');
      await writeFile(reportFile, c.files.report ?? '');
      const run = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          path.join(ROOT, 'bench/verify-limits-child.ts'),
          'verify',
          statementFile,
          '--key',
          path.join(dir, 'vendor.pub'),
        ],
        { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      );
      const result = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as {
        code: number;
        ms: number;
        maxRssMB: number;
        first: string;
      };
      console.log(
        `| ${c.name} | ${result.code} | ${(result.ms / 1000).toFixed(2)} | ${Math.round(result.maxRssMB)} | ${result.first.slice(0, 110).replace(/\|/g, '\\|')} |`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
