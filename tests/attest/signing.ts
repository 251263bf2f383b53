/**
 * Keys and signed statements for the attestation tests, made in-process: a report (the sample report of
 * docs/, with a politeness section), a statement built from it the way `--sign-key` builds one, optionally
 * changed before it is signed, and the verifier's inputs.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalSha256, sha256Hex } from '../../cli/attest/digest.ts';
import { type Envelope, envelopeLine, PAYLOAD_TYPE } from '../../cli/attest/envelope.ts';
import { installed } from '../../cli/attest/installed.ts';
import {
  type KeyAlgorithm,
  type PublicKeyInfo,
  publicKeyFrom,
  type SigningKey,
  signingKeyFrom,
} from '../../cli/attest/keys.ts';
import { redactProfile } from '../../cli/attest/redact-profile.ts';
import { signEnvelope } from '../../cli/attest/sign.ts';
import { buildStatement, type Statement } from '../../cli/attest/statement.ts';
import { type Verification, verifyStatement } from '../../cli/attest/verify.ts';
import type { Io } from '../../cli/outcome.ts';
import { ROOT } from '../report/synthetic.ts';

export const MOCK_PROFILE = path.join(ROOT, 'fixtures/mock.profile.json');

/** JSON a test edits freely (a report, a statement). */
// biome-ignore lint/suspicious/noExplicitAny: tests change any field of these documents, typed or not.
export type Json = Record<string, any>;

export interface TestKey {
  readonly signing: SigningKey;
  readonly verifying: PublicKeyInfo;
  readonly privatePem: string;
  readonly publicPem: string;
}

export async function testKey(algorithm: KeyAlgorithm = 'Ed25519'): Promise<TestKey> {
  const pair =
    algorithm === 'Ed25519'
      ? generateKeyPairSync('ed25519')
      : generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const privatePem = String(pair.privateKey.export({ format: 'pem', type: 'pkcs8' }));
  const publicPem = String(pair.publicKey.export({ format: 'pem', type: 'spki' }));
  return {
    signing: await signingKeyFrom(privatePem, 'test key'),
    verifying: await publicKeyFrom(publicPem, 'test key'),
    privatePem,
    publicPem,
  };
}

/** The sample report with a politeness section (what a run of this version writes). */
export function reportBytes(change: (report: Json) => void = () => {}): Buffer {
  const report = JSON.parse(
    readFileSync(path.join(ROOT, 'docs/sample-report/conformance.json'), 'utf8'),
  ) as Json;
  report.run.politeness = {
    requests: 120,
    limitedAnswers: 1,
    waitedMs: 1000,
    slowestWaitMs: 1000,
    reasons: { '429': 1 },
  };
  change(report);
  return Buffer.from(`${JSON.stringify(report, null, 2)}\n`);
}

export { installed };

/** The statement `--sign-key` would make for `bytes`. */
export async function statementFor(bytes: Buffer): Promise<Statement> {
  const redacted = redactProfile(JSON.parse(readFileSync(MOCK_PROFILE, 'utf8')), {});
  const report = JSON.parse(bytes.toString('utf8'));
  return buildStatement(report, sha256Hex(bytes), {
    catalogueDigest: (await installed()).catalogue.sha256,
    // As sign-run.ts names it: the report's own name for the profile.
    profile: {
      source: report.target.profile?.source ?? 'mock.profile.json',
      digest: { sha256: canonicalSha256(redacted) },
      redacted,
    },
    shardsMerged: null,
  });
}

/** The statement as JSON, changed by `change`, signed: one bundle line. */
export function signed(
  statement: Statement,
  key: SigningKey,
  change: (statement: Json) => void = () => {},
  payloadType = PAYLOAD_TYPE,
): string {
  const copy = structuredClone(statement) as Json;
  change(copy);
  return envelopeLine(signEnvelope(payloadType, Buffer.from(JSON.stringify(copy)), key));
}

/** Decodes the one envelope of a bundle line, lets `change` edit it, encodes it again. */
export function editEnvelope(
  line: string,
  change: (envelope: { -readonly [K in keyof Envelope]: Envelope[K] }) => void,
): string {
  const envelope = JSON.parse(line) as Envelope;
  change(envelope);
  return envelopeLine(envelope);
}

/** `base64` with one byte of what it encodes changed (its lowest bit flipped). */
export function flipByte(base64: string, at: number): string {
  const bytes = Buffer.from(base64, 'base64');
  bytes[at] = (bytes[at] ?? 0) ^ 0x01;
  return bytes.toString('base64');
}

/** One verification: a report, its statement, the signed envelope, each changeable on the way. */
export interface VerifyCase {
  readonly algorithm?: KeyAlgorithm;
  /** Edits the report's JSON before the statement is made. */
  readonly report?: (report: Json) => void;
  /** Edits the statement before it is signed. */
  readonly statement?: (statement: Json) => void;
  readonly payloadType?: string;
  /** Edits the envelope after signing. */
  readonly envelope?: (envelope: { -readonly [K in keyof Envelope]: Envelope[K] }) => void;
  /** Changes the report's bytes after signing. */
  readonly reportAfter?: (bytes: Buffer) => Buffer;
  /** Verifies with this key instead of the signer's. */
  readonly verifier?: TestKey;
}

export async function signAndVerify(
  c: VerifyCase = {},
): Promise<{ result: Verification; signer: TestKey; text: string }> {
  const signer = await testKey(c.algorithm);
  const bytes = reportBytes(c.report);
  let text = signed(await statementFor(bytes), signer.signing, c.statement, c.payloadType);
  if (c.envelope) text = editEnvelope(text, c.envelope);
  const result = verifyStatement({
    statementText: text,
    key: (c.verifier ?? signer).verifying,
    reportBytes: c.reportAfter ? c.reportAfter(bytes) : bytes,
    installed: await installed(),
  });
  return { result, signer, text };
}

/** An Io that keeps what the CLI prints. */
export function captureIo(): { io: Io; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t) => void out.push(t), err: (t) => void err.push(t) }, out, err };
}
