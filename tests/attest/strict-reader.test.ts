/**
 * The strict reader of what `verify` is given (issue #42): duplicate member names refuse wherever they are
 * (strict-json.ts; envelope line, payload, report, JWK), one envelope per file, the limits of limits.ts
 * checked before any signature is tried, and printable() for every line shown.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { main } from '../../cli/app.ts';
import { type Envelope, envelopeLine, PAYLOAD_TYPE } from '../../cli/attest/envelope.ts';
import { KeyError, publicKeyFrom } from '../../cli/attest/keys.ts';
import { LIMITS } from '../../cli/attest/limits.ts';
import { printable } from '../../cli/attest/printable.ts';
import { signEnvelope } from '../../cli/attest/sign.ts';
import { parseStrictJson } from '../../cli/attest/strict-json.ts';
import { verifyStatement } from '../../cli/attest/verify.ts';
import { EXIT } from '../../cli/exit-codes.ts';
import { captureIo, installed, reportBytes, signed, statementFor, testKey } from './signing.ts';

test('duplicate member names refuse, at any depth, however the name is escaped; the place is a JSON Pointer', () => {
  expect(parseStrictJson('{"a":1,"b":{"c":[1,{"d":2}]}}')).toEqual({
    ok: true,
    value: { a: 1, b: { c: [1, { d: 2 }] } },
  });
  const cases: [string, string, string][] = [
    ['{"a":1,"a":2}', 'a', '/'],
    // RFC 8259 §7: "\u0061" is "a"; JSON.parse would keep the second.
    ['{"a":1,"\\u0061":2}', 'a', '/'],
    ['[{"x":[{"b":1,"b":1}]}]', 'b', '/0/x/0'],
    ['{"a/b":{"c~":1,"c~":1}}', 'c~', '/a~1b'],
  ];
  for (const [text, name, at] of cases) {
    const result = parseStrictJson(text);
    expect(result, text).toEqual({
      ok: false,
      cause: `has a duplicate member ${JSON.stringify(name)} in the object at ${at} (RFC 8259 §4: which one counts is unpredictable)`,
    });
  }
  for (const text of ['{"a":1,}', '"x" 1', '[', ''])
    expect(parseStrictJson(text)).toEqual({ ok: false, cause: 'is not JSON' });
});

test('a duplicate member in the envelope line, in the report or in a JWK refuses', async () => {
  const key = await testKey();
  const bytes = reportBytes();
  const line = signed(await statementFor(bytes), key.signing);
  const input = { key: key.verifying, reportBytes: bytes, installed: await installed() };
  // A second payloadType after the signed one: JSON.parse would read the second.
  const twice = line.replace('"payloadType":', '"payloadType":"text/plain","payloadType":');
  expect(verifyStatement({ ...input, statementText: twice })).toEqual({
    ok: false,
    cause: expect.stringMatching(
      /^statement: line 1 has a duplicate member "payloadType" in the object at \//,
    ),
  });
  // The report's bytes are what is signed; a duplicate in them is refused all the same.
  const doubled = Buffer.from(
    bytes.toString('utf8').replace('"conformance": {', '"conformance": {"conformant": false,'),
  );
  const withDuplicate = signed(await statementFor(doubled), key.signing);
  expect(verifyStatement({ ...input, reportBytes: doubled, statementText: withDuplicate })).toEqual({
    ok: false,
    cause: expect.stringMatching(
      /^report: the attested report has a duplicate member "conformant" in the object at \/conformance/,
    ),
  });
  const jwk = JSON.stringify(key.verifying.publicKey.export({ format: 'jwk' })).replace('{', '{"x":"AAAA",');
  await expect(publicKeyFrom(jwk, 'vendor.jwk')).rejects.toThrow(
    new KeyError(
      'vendor.jwk is a JWK that has a duplicate member "x" in the object at / (RFC 8259 §4: which one counts is unpredictable)',
    ),
  );
});

test('one envelope per file: a second is refused even when both verify', async () => {
  const key = await testKey();
  const bytes = reportBytes();
  const line = signed(await statementFor(bytes), key.signing);
  expect(
    verifyStatement({
      key: key.verifying,
      reportBytes: bytes,
      installed: await installed(),
      statementText: `${line}${line}`,
    }),
  ).toEqual({
    ok: false,
    cause: 'statement: the file holds 2 DSSE envelopes; gatecheck writes one and reads at most 1',
  });
});

test('limits: the signature count and the payload size refuse before any signature is tried; at the limit, signatures are tried', async () => {
  const key = await testKey();
  const bytes = reportBytes();
  const input = { key: key.verifying, reportBytes: bytes, installed: await installed() };
  const valid = signEnvelope(
    PAYLOAD_TYPE,
    Buffer.from(JSON.stringify(await statementFor(bytes))),
    key.signing,
  );
  const bogus = () => ({ sig: randomBytes(64).toString('base64') });
  const envelope = (e: Partial<Envelope>) => envelopeLine({ ...valid, ...e });
  // Over: the valid signature is last, and is never reached.
  const tooMany = [...Array.from({ length: LIMITS.signatures }, bogus), ...valid.signatures];
  expect(verifyStatement({ ...input, statementText: envelope({ signatures: tooMany }) })).toEqual({
    ok: false,
    cause: `statement: the envelope has ${LIMITS.signatures + 1} signatures; at most ${LIMITS.signatures} are tried`,
  });
  // At the limit: the valid one, last, verifies.
  const atLimit = [...Array.from({ length: LIMITS.signatures - 1 }, bogus), ...valid.signatures];
  expect(verifyStatement({ ...input, statementText: envelope({ signatures: atLimit }) }).ok).toBe(true);
  // The payload: one byte over is refused by its length alone, padded or not.
  for (const size of [LIMITS.payloadBytes + 1, LIMITS.payloadBytes + 3]) {
    const payload = Buffer.alloc(size, 0x20).toString('base64');
    for (const text of [payload, payload.replace(/=+$/, '')]) {
      expect(verifyStatement({ ...input, statementText: envelope({ payload: text }) })).toEqual({
        ok: false,
        cause: 'statement: the payload is over 2 MiB; at most 2 MiB is read',
      });
    }
  }
  const atPayloadLimit = Buffer.alloc(LIMITS.payloadBytes, 0x20).toString('base64');
  expect(verifyStatement({ ...input, statementText: envelope({ payload: atPayloadLimit }) })).toMatchObject({
    ok: false,
    cause: expect.stringMatching(/^signature: does not verify/),
  });
});

test('limits: a statement or a report file over its size is refused before it is read, exit 1', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-limits-'));
  try {
    const key = await testKey();
    const bytes = reportBytes();
    const statement = path.join(dir, 'conformance.intoto.jsonl');
    await writeFile(path.join(dir, 'vendor.pub'), key.publicPem);
    const argv = ['verify', statement, '--key', path.join(dir, 'vendor.pub')];
    await writeFile(path.join(dir, 'conformance.json'), bytes);
    await writeFile(statement, Buffer.alloc(LIMITS.statementBytes + 1, 0x20));
    const big = captureIo();
    expect(await main(argv, big.io)).toBe(EXIT.nonConformant);
    expect(big.err).toEqual([
      'gatecheck: verify failed: statement: the file is 4.0 MiB; at most 4 MiB is read (gatecheck writes a few KiB)\n',
    ]);
    await writeFile(statement, signed(await statementFor(bytes), key.signing));
    await writeFile(path.join(dir, 'conformance.json'), Buffer.alloc(LIMITS.reportBytes + 1, 0x20));
    const report = captureIo();
    expect(await main(argv, report.io)).toBe(EXIT.nonConformant);
    expect(report.err).toEqual([
      'gatecheck: verify failed: report: the file is 8.0 MiB; at most 8 MiB is read\n',
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('printable: control characters, DEL, C1, line separators and bidi overrides escaped; other text kept', () => {
  expect(printable('a\u001b[2Jb\r\nc\u0007\u007f\u009b\u2028\u202e\u2066')).toBe(
    'a\\u001b[2Jb\\u000d\\u000ac\\u0007\\u007f\\u009b\\u2028\\u202e\\u2066',
  );
  expect(printable('MUST · 84 pass → ok, é, 日本')).toBe('MUST · 84 pass → ok, é, 日本');
});
