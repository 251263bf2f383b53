/**
 * What `gatecheck verify` holds a statement to, in-process (cli/attest/verify.ts): a signed statement of a
 * report verifies; one byte changed in the report, the payload or the signature, another key, a predicate
 * with an unknown or a missing field, a predicate that restates the report wrongly, a wrong profile or
 * catalogue digest — each fails with one line naming its cause.
 */
import { expect, test } from '@playwright/test';
import { verifyStatement } from '../../cli/attest/verify.ts';
import { CATALOGUE_VERSION } from '../../specs/rules/catalogue.ts';
import {
  editEnvelope,
  flipByte,
  installed,
  type Json,
  reportBytes,
  signAndVerify,
  signed,
  statementFor,
  testKey,
  type VerifyCase,
} from './signing.ts';

const ALGORITHMS = ['Ed25519', 'ECDSA P-256'] as const;

test('a statement of the report, signed with Ed25519 or ECDSA P-256, verifies with the public key', async () => {
  for (const algorithm of ALGORITHMS) {
    const { result } = await signAndVerify({ algorithm });
    expect(result, algorithm).toMatchObject({ ok: true, notes: [] });
    if (result.ok)
      expect(result.statement.predicate.verdict.statement).toBe('Conformant at MUST and SHOULD levels');
  }
});

test('ECDSA P-256 signatures are ASN.1 DER (what in-toto and sigstore verifiers read)', async () => {
  const key = await testKey('ECDSA P-256');
  const line = signed(await statementFor(reportBytes()), key.signing);
  const sig = Buffer.from(JSON.parse(line).signatures[0].sig, 'base64');
  // DER: SEQUENCE (0x30) of two INTEGERs, 8 to 72 bytes for P-256.
  expect(sig[0]).toBe(0x30);
  expect(sig[1]).toBe(sig.length - 2);
  expect(sig[2]).toBe(0x02);
});

test.describe('one byte changed', () => {
  test('in the report → "report: its SHA-256 is …"', async () => {
    const { result } = await signAndVerify({
      reportAfter: (bytes) => {
        const changed = Buffer.from(bytes);
        changed[changed.indexOf('Conformant')] = 'c'.charCodeAt(0);
        return changed;
      },
    });
    expect(result).toEqual({
      ok: false,
      cause: expect.stringMatching(
        /^report: its SHA-256 is [0-9a-f]{64}, the statement attests conformance\.json [0-9a-f]{64}: the report was changed after signing/,
      ),
    });
  });

  test("in the statement's payload → signature does not verify", async () => {
    const { result, signer } = await signAndVerify({
      envelope: (e) => {
        e.payload = flipByte(e.payload, 200);
      },
    });
    expect(result).toEqual({
      ok: false,
      cause: `signature: does not verify with key ${signer.verifying.keyId}: the statement's payload or signature was changed after signing`,
    });
  });

  test('in the signature → signature does not verify', async () => {
    for (const algorithm of ALGORITHMS) {
      const { result } = await signAndVerify({
        algorithm,
        envelope: (e) => {
          e.signatures = e.signatures.map((s) => ({ ...s, sig: flipByte(s.sig, 20) }));
        },
      });
      expect(result, algorithm).toEqual({
        ok: false,
        cause: expect.stringMatching(/^signature: does not verify with key /),
      });
    }
  });

  test('a character of the signature outside base64 → "signature: the signature is not base64"', async () => {
    const { result } = await signAndVerify({
      envelope: (e) => {
        e.signatures = e.signatures.map((s) => ({ ...s, sig: `${s.sig.slice(0, 10)}!${s.sig.slice(11)}` }));
      },
    });
    expect(result).toEqual({ ok: false, cause: 'signature: the signature is not base64' });
  });
});

test('a statement signed with another key fails, naming both keys', async () => {
  const other = await testKey();
  const { result, signer, text } = await signAndVerify({ verifier: other });
  expect(result).toEqual({
    ok: false,
    cause: `signature: the statement was signed by key ${signer.verifying.keyId}, not by the key given (${other.verifying.keyId})`,
  });
  // keyid is only a hint: another key's signature under the given key's id does not verify either.
  const relabelled = editEnvelope(text, (e) => {
    e.signatures = e.signatures.map((s) => ({ ...s, keyid: other.verifying.keyId }));
  });
  const again = verifyStatement({
    statementText: relabelled,
    key: other.verifying,
    reportBytes: reportBytes(),
    installed: await installed(),
  });
  expect(again).toMatchObject({
    ok: false,
    cause: expect.stringMatching(/^signature: does not verify with key /),
  });
});

/** [what, the change, the start of the line verify must print]. */
type Case = [string, VerifyCase, string];

const change = (edit: (s: Json) => void): VerifyCase => ({ statement: edit });

test.describe('the predicate against the schema (signed as changed, so only the schema can refuse it)', () => {
  const cases: Case[] = [
    [
      'an unknown field',
      change((s) => {
        s.predicate.run.operator = 'someone';
      }),
      'schema: /predicate/run/operator is not a known field',
    ],
    [
      'an unknown top-level predicate field',
      change((s) => {
        s.predicate.signedBy = 'vendor';
      }),
      'schema: /predicate/signedBy is not a known field',
    ],
    [
      'a missing field',
      change((s) => {
        delete s.predicate.verdict.outcome;
      }),
      'schema: /predicate/verdict/outcome is required',
    ],
    [
      'a missing section',
      change((s) => {
        delete s.predicate.counts;
      }),
      'schema: /predicate/counts is required',
    ],
    [
      'a wrong type in a nullable field',
      change((s) => {
        s.predicate.run.budget = 'many';
      }),
      'schema: /predicate/run/budget must be null or integer',
    ],
    [
      'politeness without its request count',
      change((s) => {
        delete s.predicate.politeness.requests;
      }),
      'schema: /predicate/politeness/requests is required',
    ],
    [
      'a digest that is not SHA-256 hex',
      change((s) => {
        s.subject[0].digest.sha256 = 'ABC';
      }),
      'schema: /subject/0/digest/sha256 must match pattern "^[0-9a-f]{64}$"',
    ],
  ];
  for (const [what, c, cause] of cases) {
    test(`${what} → ${cause}`, async () => {
      const { result } = await signAndVerify(c);
      expect(result).toEqual({ ok: false, cause: `${cause} (conformance-statement.schema.json)` });
    });
  }

  test("politeness is embedded by value: a field the report's schema knows passes, one it does not is refused", async () => {
    // pacePerSecond: optional in conformance.schema.json, not named by the statement's schema.
    const known = await signAndVerify({
      report: (r) => {
        r.run.politeness.pacePerSecond = 2;
      },
    });
    expect(known.result.ok).toBe(true);
    // The report's own schema decides which members it may have (a member it gains flows through).
    const unknown = await signAndVerify({
      report: (r) => {
        r.run.politeness.scopes = [{ scope: 'address', requests: 120 }];
      },
    });
    expect(unknown.result).toEqual({
      ok: false,
      cause: 'report: /run/politeness/scopes is not a known field (conformance.schema.json)',
    });
  });

  test('a key learned under several limits, with the coarser key its answers fit too, is a known field', async () => {
    // What RunCoordinator#politeness writes under a `rateLimit` list (specs/run/coordinator.ts: `entry`) where
    // the limited answers fit a coarser key as well (specs/run/key-model.ts: `alsoFits`).
    const { result } = await signAndVerify({
      report: (r) => {
        r.run.politeness.key = {
          inForce: ['credential', 'endpoint'],
          learned: [
            {
              key: 'endpoint',
              at: 1795676116198,
              counter: 'endpoint /protected',
              requests: 4,
              spanMs: 500,
              entry: 'short',
              alsoFits: [{ key: 'address', counter: 'address' }],
            },
          ],
          summary: 'short: key not declared; the target limits per route, or per client address: …',
        };
      },
    });
    expect(result.ok, JSON.stringify(result.ok ? '' : result.cause)).toBe(true);
  });
});

test.describe('a signed predicate that does not restate its report', () => {
  const cases: Case[] = [
    [
      'another verdict',
      change((s) => {
        s.predicate.verdict.outcome = 'partial';
      }),
      `report: the statement's predicate/verdict/outcome is "partial", the report says "conformant"`,
    ],
    [
      'another rule verdict',
      change((s) => {
        s.predicate.rules[0].verdict = 'fail';
      }),
      `report: the statement's predicate/rules/0/verdict is "fail", the report says "pass"`,
    ],
    [
      'a rule left out',
      change((s) => {
        s.predicate.rules.pop();
      }),
      // The last of the sample report's rules (docs/sample-report, regenerated as the catalogue grows).
      `report: the statement's predicate/rules/${(JSON.parse(reportBytes().toString('utf8')) as { rules: unknown[] }).rules.length - 1} is (absent), the report says`,
    ],
    [
      'other politeness',
      change((s) => {
        s.predicate.politeness.extra = 1;
      }),
      `report: the statement's predicate/politeness/extra is 1, the report says (absent)`,
    ],
    [
      'another profile digest',
      change((s) => {
        s.predicate.profile.digest.sha256 = '0'.repeat(64);
      }),
      'profile: the embedded redacted profile does not have the digest the predicate states',
    ],
    [
      'another catalogue digest',
      change((s) => {
        s.predicate.catalogue.digest.sha256 = '0'.repeat(64);
      }),
      `catalogue: the statement's catalogue ${CATALOGUE_VERSION} has digest ${'0'.repeat(64)}, this gatecheck's ${CATALOGUE_VERSION} has `,
    ],
    [
      'another payload type',
      { payloadType: 'application/json' },
      'statement: payloadType is "application/json", expected "application/vnd.in-toto+json"',
    ],
    [
      'another predicate type',
      change((s) => {
        s.predicateType = 'https://slsa.dev/provenance/v1';
      }),
      `statement: predicateType is "https://slsa.dev/provenance/v1", not gatecheck's`,
    ],
  ];
  for (const [what, c, cause] of cases) {
    test(`${what} → ${cause}`, async () => {
      const { result } = await signAndVerify(c);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.cause.startsWith(cause), result.cause).toBe(true);
    });
  }
});

test("another gatecheck version with this catalogue version: the catalogue is still compared (it is the catalogue's version that says which rules)", async () => {
  const { result } = await signAndVerify({
    report: (r) => {
      r.suite.version = '9.9.9';
    },
  });
  expect(result).toMatchObject({ ok: true, notes: [] });
  const changed = await signAndVerify({
    report: (r) => {
      r.suite.version = '9.9.9';
    },
    statement: (s) => {
      s.predicate.catalogue.digest.sha256 = '0'.repeat(64);
    },
  });
  expect(changed.result).toMatchObject({
    ok: false,
    cause: expect.stringMatching(/^catalogue: .* has digest 0{64}/),
  });
});

test('a bundle with unrecognized lines: they are ignored (in-toto bundle.md); a file with no envelope fails', async () => {
  const key = await testKey();
  const bytes = reportBytes();
  const input = { key: key.verifying, reportBytes: bytes, installed: await installed() };
  const text = `not json\n{"another": "object"}\n${signed(await statementFor(bytes), key.signing)}\n`;
  expect(verifyStatement({ ...input, statementText: text }).ok).toBe(true);
  expect(verifyStatement({ ...input, statementText: 'not json\n' })).toEqual({
    ok: false,
    cause: 'statement: the file holds no DSSE envelope',
  });
});
