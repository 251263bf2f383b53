/**
 * The flags of signing and verifying (cli/args.ts): parsed without touching a file; every mistake one line
 * naming the flag, exit 2. In-process.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { main } from '../../cli/app.ts';
import { parseCommand } from '../../cli/args.ts';
import { EXIT, UsageError } from '../../cli/exit-codes.ts';
import { captureIo, reportBytes, signed, statementFor, testKey } from './signing.ts';

function usage(argv: readonly string[]): string {
  try {
    parseCommand(argv, '/work');
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  throw new Error(`${argv.join(' ')} parsed`);
}

test('--sign-key: a file resolved against the working directory, or env:NAME; on a run and on merge-reports', () => {
  expect(parseCommand(['--sign-key', 'keys/vendor.key'], '/work')).toMatchObject({
    kind: 'run',
    options: { signKey: { file: path.resolve('/work', 'keys/vendor.key') } },
  });
  expect(parseCommand(['--sign-key=env:GATECHECK_SIGNING_KEY'], '/work')).toMatchObject({
    kind: 'run',
    options: { signKey: { env: 'GATECHECK_SIGNING_KEY' } },
  });
  expect(parseCommand(['merge-reports', 'blobs', '--sign-key', 'v.key'], '/work')).toMatchObject({
    kind: 'merge',
    options: { signKey: { file: path.resolve('/work', 'v.key') } },
  });
  expect(parseCommand([], '/work')).toMatchObject({ kind: 'run', options: { strict: false } });
  expect('signKey' in (parseCommand([], '/work') as { options: object }).options).toBe(false);
});

test('signing and verifying mistakes: one line naming the flag', () => {
  expect(usage(['--sign-key', ''])).toBe('--sign-key must name a key file or env:NAME');
  expect(usage(['--sign-key', 'env:'])).toBe(
    '--sign-key env:NAME needs an environment variable name (letters, digits, _); the 4 characters given are not one (not repeated here)',
  );
  expect(usage(['--shard', '1/2', '--sign-key', 'v.key'])).toBe(
    '--sign-key belongs to merge-reports, not to a --shard run',
  );
  expect(usage(['verify'])).toBe(
    'verify needs one argument: the statement (reports/conformance.intoto.jsonl)',
  );
  expect(usage(['verify', 's.jsonl'])).toBe(
    "verify: --key is required: the signer's public key (PEM or JWK file, or env:NAME)",
  );
  expect(usage(['verify', 's.jsonl', '--key', 'k.pub', '--report', ''])).toBe(
    '--report must name the conformance.json the statement attests',
  );
  expect(usage(['verify', 's.jsonl', '--key', 'k.pub', '--strict'])).toMatch(
    /^Unknown option '--strict' \(see --help\)$/,
  );
  expect(usage(['keygen', '--type', 'rsa'])).toBe('--type must be ed25519 or p256, got "rsa"');
  expect(usage(['keygen', '--format', 'der'])).toBe('--format must be pem or jwk, got "der"');
  expect(usage(['keygen', 'extra'])).toBe('keygen: unexpected argument "extra" (see --help)');
});

test('verify and keygen parse to their commands, paths resolved', () => {
  expect(
    parseCommand(['verify', 'out/conformance.intoto.jsonl', '--key', 'env:VENDOR_PUB'], '/work'),
  ).toEqual({
    kind: 'verify',
    options: { statement: path.resolve('/work', 'out/conformance.intoto.jsonl'), key: { env: 'VENDOR_PUB' } },
  });
  expect(parseCommand(['verify', 's', '--key', 'k.pub', '--report', 'r.json'], '/work')).toMatchObject({
    options: { key: { file: path.resolve('/work', 'k.pub') }, report: path.resolve('/work', 'r.json') },
  });
  expect(parseCommand(['keygen'], '/work')).toEqual({
    kind: 'keygen',
    options: {
      out: path.resolve('/work', 'gatecheck-signing'),
      algorithm: 'Ed25519',
      format: 'pem',
      force: false,
    },
  });
  expect(
    parseCommand(['keygen', '-o', 'v', '--type', 'p256', '--format', 'jwk', '--force'], '/work'),
  ).toMatchObject({
    options: { out: path.resolve('/work', 'v'), algorithm: 'ECDSA P-256', format: 'jwk', force: true },
  });
});

test('gatecheck verify: exit 0 printing the attested verdict; exit 1 with one line naming the cause; exit 2 for files it cannot read', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-verify-'));
  try {
    const key = await testKey();
    const bytes = reportBytes();
    await writeFile(path.join(dir, 'conformance.json'), bytes);
    await writeFile(
      path.join(dir, 'conformance.intoto.jsonl'),
      signed(await statementFor(bytes), key.signing),
    );
    await writeFile(path.join(dir, 'vendor.pub'), key.publicPem);
    const statement = path.join(dir, 'conformance.intoto.jsonl');

    const ok = captureIo();
    expect(await main(['verify', statement, '--key', path.join(dir, 'vendor.pub')], ok.io)).toBe(
      EXIT.conformant,
    );
    expect(ok.err).toEqual([]);
    const printed = ok.out.join('');
    expect(printed).toContain(`gatecheck: verified: signed by key ${key.verifying.keyId} (Ed25519)`);
    expect(printed).toContain('attests: Conformant at MUST and SHOULD levels\n');
    expect(printed).toMatch(/ {2}MUST +\d+ pass · 0 fail/);

    // The public key from an environment variable works the same way.
    process.env.GATECHECK_TEST_VENDOR_PUB = key.publicPem;
    try {
      expect(
        await main(['verify', statement, '--key', 'env:GATECHECK_TEST_VENDOR_PUB'], captureIo().io),
      ).toBe(EXIT.conformant);
    } finally {
      delete process.env.GATECHECK_TEST_VENDOR_PUB;
    }

    const tampered = Buffer.from(bytes);
    tampered[tampered.length - 3] = 0x20;
    await writeFile(path.join(dir, 'changed.json'), tampered);
    const failed = captureIo();
    const code = await main(
      [
        'verify',
        statement,
        '--key',
        path.join(dir, 'vendor.pub'),
        '--report',
        path.join(dir, 'changed.json'),
      ],
      failed.io,
    );
    expect(code).toBe(EXIT.nonConformant);
    expect(failed.out).toEqual([]);
    expect(failed.err).toHaveLength(1);
    expect(failed.err[0]).toMatch(/^gatecheck: verify failed: report: its SHA-256 is [0-9a-f]{64}, .*\n$/);

    const cases: [string[], RegExp][] = [
      [
        ['verify', path.join(dir, 'none.jsonl'), '--key', path.join(dir, 'vendor.pub')],
        /cannot read .*none\.jsonl \(ENOENT\)$/,
      ],
      [
        ['verify', statement, '--key', path.join(dir, 'none.pub')],
        /^--key: no file by the name given \(\d+ characters, not repeated here in case it is a key\); give a key file \(PEM or JWK\) or env:NAME/,
      ],
      [
        ['verify', statement, '--key', path.join(dir, 'conformance.json')],
        /^--key: .*conformance\.json is not a JSON Web Key \(no "kty"\)$/,
      ],
      [
        ['verify', statement, '--key', path.join(dir, 'vendor.pub'), '--report', path.join(dir, 'none.json')],
        /^verify: cannot read the report .*none\.json \(ENOENT\)$/,
      ],
    ];
    for (const [argv, line] of cases) {
      const bad = captureIo();
      expect(await main(argv, bad.io), argv.join(' ')).toBe(EXIT.usage);
      expect(bad.err).toHaveLength(1);
      expect(bad.err[0]?.replace(/^gatecheck: /, '').replace(/\n$/, '')).toMatch(line);
    }
    // No report beside the statement: the line says how to name it.
    await rm(path.join(dir, 'conformance.json'));
    const missing = captureIo();
    expect(await main(['verify', statement, '--key', path.join(dir, 'vendor.pub')], missing.io)).toBe(
      EXIT.usage,
    );
    expect(missing.err.join('')).toContain('(ENOENT); name it with --report <conformance.json>');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
