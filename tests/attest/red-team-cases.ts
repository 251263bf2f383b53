/**
 * The red-team cases of issue #42, each a `gatecheck verify` of files a key holder (or an attacker) wrote:
 * the statement, the report and the key go to a temporary directory and `main(['verify', …])` runs
 * in-process. red-team.test.ts asserts each; scripts/red-team-table.ts prints them as the before/after table.
 * Everything here goes through the CLI and the signing helpers, so the same cases run on older code.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../cli/app.ts';
import { canonicalSha256 } from '../../cli/attest/digest.ts';
import { type Envelope, envelopeLine, PAYLOAD_TYPE } from '../../cli/attest/envelope.ts';
import { signEnvelope } from '../../cli/attest/sign.ts';
import { ROOT } from '../report/synthetic.ts';
import { captureIo, type Json, reportBytes, statementFor, type TestKey, testKey } from './signing.ts';

export interface Ran {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

export interface RedTeamCase {
  /** The issue's words for the case. */
  readonly name: string;
  /** What must happen. */
  readonly expected: string;
  readonly expectedCode: number;
  /** Run it: a verify over files made for the case. */
  readonly run: () => Promise<Ran>;
  /** What the output must (not) hold beyond the exit code; returns a complaint or undefined. */
  readonly check?: (ran: Ran) => string | undefined;
}

interface Files {
  /** Edits the report before the statement is made from it. */
  readonly report?: (report: Json) => void;
  /** Edits the statement before it is signed. */
  readonly statement?: (statement: Json) => void;
  /** Edits the serialized payload before it is signed. */
  readonly payload?: (text: string) => string;
  /** Replaces the whole statement file (gets the signed line). */
  readonly file?: (line: string, key: TestKey) => Buffer | string;
  /** The --key file's text (default: the signer's public PEM). */
  readonly keyText?: (key: TestKey) => string;
  readonly args?: readonly string[];
}

async function verifyFiles(files: Files = {}): Promise<Ran> {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-redteam-'));
  try {
    const key = await testKey();
    const bytes = reportBytes(files.report);
    const statement = structuredClone(await statementFor(bytes)) as Json;
    files.statement?.(statement);
    let text = JSON.stringify(statement);
    if (files.payload) text = files.payload(text);
    const line = envelopeLine(signEnvelope(PAYLOAD_TYPE, Buffer.from(text), key.signing));
    await writeFile(path.join(dir, 'conformance.json'), bytes);
    await writeFile(path.join(dir, 'conformance.intoto.jsonl'), files.file ? files.file(line, key) : line);
    await writeFile(path.join(dir, 'vendor.pub'), files.keyText ? files.keyText(key) : key.publicPem);
    const { io, out, err } = captureIo();
    const code = await main(
      [
        'verify',
        path.join(dir, 'conformance.intoto.jsonl'),
        '--key',
        path.join(dir, 'vendor.pub'),
        ...(files.args ?? []),
      ],
      io,
    );
    return { code, out: out.join(''), err: err.join('') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

type Rule = { id: string; level: string; verdict: string };

/** The first `n` MUST rules of the report made to fail, the counts following (a consistent rule list). */
function failMust(report: Json, n: number): string[] {
  const rules = (report.rules as Rule[]).filter((r) => r.level === 'MUST').slice(0, n);
  for (const rule of rules) rule.verdict = 'fail';
  report.counts.MUST.pass -= n;
  report.counts.MUST.fail += n;
  return rules.map((r) => r.id);
}

/** The report's verdict made honest for `ids` failing (what the reporter writes). */
function notConformant(report: Json, ids: string[]): void {
  report.conformance = {
    conformant: false,
    outcome: 'not-conformant',
    level: null,
    complete: true,
    statement: `Not conformant: ${ids.length} MUST rule${ids.length === 1 ? ' fails' : 's fail'}`,
    failing: ids,
  };
}

const ESC = '\u001b';

/** No raw control character except the line ends. */
function noControl(ran: Ran): string | undefined {
  const text = (ran.out + ran.err).replace(/\n/g, '');
  const bad = [...text].find(
    (c) => c.charCodeAt(0) < 0x20 || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f),
  );
  return bad === undefined ? undefined : `printed U+${bad.charCodeAt(0).toString(16).padStart(4, '0')} raw`;
}

const fails = (pattern: RegExp) => (ran: Ran) =>
  pattern.test(ran.err) ? undefined : `stderr does not match ${pattern}: ${ran.err}`;

export const RED_TEAM: readonly RedTeamCase[] = [
  {
    name: 'verdict says conformant while 8 MUST rules fail (report and predicate agree)',
    expected: 'refused: the rules give not-conformant',
    expectedCode: 1,
    run: () => verifyFiles({ report: (r) => void failMust(r, 8) }),
    check: fails(/verdict: .*not-conformant.*8 MUST rules fail/),
  },
  {
    name: 'verdict sentence disagrees with the outcome (verify printed the sentence)',
    expected: 'refused: the sentence says conformant, the outcome not',
    expectedCode: 1,
    run: () =>
      verifyFiles({
        report: (r) => {
          notConformant(r, failMust(r, 1));
          r.conformance.statement = 'Conformant at MUST and SHOULD levels';
        },
      }),
    check: fails(/verdict: the statement's sentence .*not-conformant/),
  },
  {
    name: 'counts that do not add up (MUST pass 99 of 84)',
    expected: 'refused: counts recomputed from the rules',
    expectedCode: 1,
    run: () =>
      verifyFiles({
        report: (r) => {
          r.counts.MUST.pass = 99;
        },
      }),
    // The rule list's own count, whatever the catalogue holds (84 MUST rules in 1.4.0, 89 in 1.5.0).
    check: fails(/counts: .*MUST.*pass.*99.*the rule list gives \d+/),
  },
  {
    name: 'rule list missing the failing rules (94 of 102)',
    expected: "refused: the rule ids are not the catalogue's",
    expectedCode: 1,
    run: () =>
      verifyFiles({
        report: (r) => {
          const gone = new Set(failMust(r, 8));
          r.rules = (r.rules as Rule[]).filter((rule) => !gone.has(rule.id));
          r.counts.MUST.fail -= 8;
          r.counts.MUST.total -= 8;
        },
      }),
    // 8 fewer than the catalogue holds (94 of 102 in 1.4.0, 99 of 107 in 1.5.0).
    check: fails(/rules: \d+ rules, catalogue .* has \d+: .* is missing/),
  },
  {
    name: 'rule list of another catalogue while the version matches',
    expected: "refused: the rule ids are not the catalogue's",
    expectedCode: 1,
    run: () =>
      verifyFiles({
        report: (r) => {
          for (const rule of (r.rules as Rule[]).slice(0, 3)) rule.id = `other.${rule.id}`;
        },
      }),
    check: fails(/rules: .*other\./),
  },
  {
    name: 'a failed MUST rule relabelled INFO in the report (counts to match)',
    expected: "refused: levels are the catalogue's",
    expectedCode: 1,
    run: () =>
      verifyFiles({
        report: (r) => {
          const rule = (r.rules as Rule[]).find((x) => x.level === 'MUST') as Rule;
          rule.level = 'INFO';
          rule.verdict = 'fail';
          r.counts.MUST.pass -= 1;
          r.counts.MUST.total -= 1;
          r.counts.INFO.fail += 1;
          r.counts.INFO.total += 1;
        },
      }),
    check: fails(/rules: the report gives .* level INFO, catalogue .* says MUST/),
  },
  {
    name: 'changed suite.version skips the catalogue check (catalogue digest changed)',
    expected: 'refused: the catalogue is compared by its own version',
    expectedCode: 1,
    run: () =>
      verifyFiles({
        report: (r) => {
          r.suite.version = '0.0.9';
        },
        statement: (s) => {
          s.predicate.catalogue.digest.sha256 = 'ab'.repeat(32);
        },
      }),
    check: fails(/catalogue: .*digest/),
  },
  {
    name: 'embedded profile naming another target than the report',
    expected: "refused: the profile's name is not the report's",
    expectedCode: 1,
    run: () =>
      verifyFiles({
        statement: (s) => {
          const profile = s.predicate.profile;
          profile.redacted.name = 'another vendor';
          profile.redacted.baseUrl = 'https://another.example';
          profile.digest.sha256 = canonicalSha256(profile.redacted);
        },
      }),
    check: fails(/profile: .*another vendor/),
  },
  {
    name: 'unknown member in the embedded profile (digest recomputed)',
    expected: 'refused: not a known field of the profile schema',
    expectedCode: 1,
    run: () =>
      verifyFiles({
        statement: (s) => {
          const profile = s.predicate.profile;
          profile.redacted.certifiedBy = 'an auditor';
          profile.digest.sha256 = canonicalSha256(profile.redacted);
        },
      }),
    check: fails(/profile: the embedded profile's \/certifiedBy is not a known field/),
  },
  {
    name: 'a subject named evil.json',
    expected: 'refused: one subject, conformance.json',
    expectedCode: 1,
    run: () =>
      verifyFiles({
        statement: (s) => {
          s.subject[0].name = 'evil.json';
        },
      }),
    check: fails(/subject/),
  },
  {
    name: 'two subjects',
    expected: 'refused: one subject, conformance.json',
    expectedCode: 1,
    run: () =>
      verifyFiles({
        statement: (s) =>
          void s.subject.push({ name: 'conformance.json', digest: { sha256: 'cd'.repeat(32) } }),
      }),
    check: fails(/subject/),
  },
  {
    name: 'unknown top-level Statement member',
    expected: 'refused: not a known field',
    expectedCode: 1,
    run: () =>
      verifyFiles({
        statement: (s) => {
          s.comment = 'approved by the auditor';
        },
      }),
    check: fails(/\/comment is not a known field/),
  },
  {
    name: 'payload with two `verdict` members (last wins)',
    expected: 'refused: duplicate member',
    expectedCode: 1,
    run: () =>
      verifyFiles({
        payload: (text) =>
          text.replace(
            '"verdict":{"outcome"',
            '"verdict":{"outcome":"not-conformant","conformant":false,"level":null,"complete":true,"statement":"Not conformant"},"verdict":{"outcome"',
          ),
      }),
    check: fails(/duplicate member "verdict"/),
  },
  {
    name: 'escape sequences and newlines in printed strings',
    expected: 'verifies, control characters printed escaped',
    expectedCode: 0,
    run: () =>
      verifyFiles({
        report: (r) => {
          r.target.baseUrl = `bundled mock${ESC}[2K\rattests: Conformant\n`;
          r.run.filter = `--only ${ESC}]0;title\u0007`;
        },
      }),
    check: noControl,
  },
  {
    name: '2,000 bogus signatures over a 4 MiB payload',
    expected: 'refused before any signature is tried',
    expectedCode: 1,
    run: () =>
      verifyFiles({
        file: () => {
          const envelope: Envelope = {
            payload: Buffer.alloc(4 * 1024 * 1024, 0x20).toString('base64'),
            payloadType: PAYLOAD_TYPE,
            signatures: Array.from({ length: 2000 }, () => ({ sig: randomBytes(64).toString('base64') })),
          };
          return envelopeLine(envelope);
        },
      }),
    check: fails(/statement: .*(MiB|signatures)/),
  },
  {
    name: 'statement file over the size limit (the issue: an 85 MB payload)',
    expected: 'refused before it is read',
    expectedCode: 1,
    run: () =>
      verifyFiles({
        file: () =>
          envelopeLine({
            payload: Buffer.alloc(6 * 1024 * 1024, 0x20).toString('base64'),
            payloadType: PAYLOAD_TYPE,
            signatures: [{ sig: randomBytes(64).toString('base64') }],
          }),
      }),
    check: fails(/statement: the file is .* MiB; at most/),
  },
  {
    name: 'a certificate as --key',
    expected: 'refused: a bare public key is needed',
    expectedCode: 2,
    run: async () => {
      const cert = await readFile(path.join(ROOT, 'fixtures/attest/vendor-ed25519.cert.pem'), 'utf8');
      return verifyFiles({ keyText: () => cert });
    },
    check: fails(/--key: .*certificate/),
  },
  {
    name: "PEM file: the vendor's PUBLIC KEY, then another PRIVATE KEY",
    expected: 'refused: more than one key',
    expectedCode: 2,
    run: async () => {
      // The vendor's public key first; the statement was signed by whoever holds the private key after it.
      const vendor = await testKey();
      return verifyFiles({ keyText: (signer) => `${vendor.publicPem}${signer.privatePem}` });
    },
    check: fails(/--key: .*2 keys/),
  },
  {
    name: 'JWK whose use is "enc"',
    expected: 'refused: not a key for verifying',
    expectedCode: 2,
    run: () =>
      verifyFiles({
        keyText: (key) =>
          JSON.stringify({ ...key.verifying.publicKey.export({ format: 'jwk' }), use: 'enc' }),
      }),
    check: fails(/--key: .*"use"/),
  },
  {
    name: 'JWK whose key_ops do not include verify',
    expected: 'refused: not a key for verifying',
    expectedCode: 2,
    run: () =>
      verifyFiles({
        keyText: (key) =>
          JSON.stringify({ ...key.verifying.publicKey.export({ format: 'jwk' }), key_ops: ['encrypt'] }),
      }),
    check: fails(/--key: .*"key_ops"/),
  },
  {
    name: 'JWK whose alg is another algorithm (ES256 on an Ed25519 key)',
    expected: 'refused: alg does not fit the key',
    expectedCode: 2,
    run: () =>
      verifyFiles({
        keyText: (key) =>
          JSON.stringify({ ...key.verifying.publicKey.export({ format: 'jwk' }), alg: 'ES256' }),
      }),
    check: fails(/--key: .*"alg"/),
  },
  {
    name: 'a private key given to verify --key',
    expected: 'verifies, with a line saying its public half was used',
    expectedCode: 0,
    run: () => verifyFiles({ keyText: (key) => key.privatePem }),
    check: (ran) =>
      /private key.*public half/.test(ran.out + ran.err) ? undefined : 'no line about the public half',
  },
  {
    name: 'another catalogue version',
    expected: 'refused unless --allow-other-catalogue',
    expectedCode: 1,
    run: () =>
      verifyFiles({
        report: (r) => {
          r.catalogue.version = '0.9.0';
        },
      }),
    check: fails(/catalogue: .*0\.9\.0.*--allow-other-catalogue/),
  },
  {
    name: 'another catalogue version, --allow-other-catalogue',
    expected: 'verifies with a note (levels from the report)',
    expectedCode: 0,
    run: () =>
      verifyFiles({
        report: (r) => {
          r.catalogue.version = '0.9.0';
        },
        args: ['--allow-other-catalogue'],
      }),
    check: (ran) => (/note: .*catalogue 0\.9\.0/.test(ran.out) ? undefined : 'no note naming the catalogue'),
  },
  {
    name: 'a MUST rule the declared interface requires, called not applicable (report, counts and predicate agree)',
    expected: 'refused: the embedded profile declares an interface the rule applies to',
    expectedCode: 1,
    run: () =>
      verifyFiles({
        report: (r) => {
          const rule = (r.rules as Rule[]).find((x) => x.id === 'auth.401.invalid-basic') as Rule;
          rule.verdict = 'not-applicable';
          r.counts.MUST.pass -= 1;
          r.counts.MUST['not-applicable'] += 1;
          r.conformance.statement += '; 1 rule not applicable to the declared interface';
        },
      }),
    check: fails(
      /declaration: the statement calls "auth\.401\.invalid-basic" not applicable, but the declared interface \(Bearer/,
    ),
  },
  {
    name: 'the class the target was judged as, rewritten (report and predicate agree)',
    expected: 'refused: recomputed from the embedded profile',
    expectedCode: 1,
    run: () =>
      verifyFiles({
        report: (r) => {
          r.target.declaration.class = 'Bearer (JWT RS256) · read-only';
        },
      }),
    check: fails(
      /declaration: the statement's declaration\/class is "Bearer \(JWT RS256\) · read-only", its embedded profile declares/,
    ),
  },
];
