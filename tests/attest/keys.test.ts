/**
 * The vendor's key (cli/attest/keys.ts): Ed25519 and ECDSA P-256, PEM or JWK, from a file or a variable, one
 * key id whatever the form; every other key refused in one line that names where it came from and never
 * shows a byte of it. And `gatecheck keygen`: a pair that signs and verifies, the private half mode 0600.
 */
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { calculateJwkThumbprint } from 'jose';
import { main } from '../../cli/app.ts';
import { parseKeySource } from '../../cli/attest/key-source.ts';
import { KeyError, publicKeyFrom, readKeyText, signingKeyFrom } from '../../cli/attest/keys.ts';
import { EXIT } from '../../cli/exit-codes.ts';
import { captureIo } from './signing.ts';

test('PEM and JWK, private and public: one key id, the RFC 7638 thumbprint of the public JWK', async () => {
  for (const pair of [
    generateKeyPairSync('ed25519'),
    generateKeyPairSync('ec', { namedCurve: 'prime256v1' }),
  ]) {
    const jwk = pair.publicKey.export({ format: 'jwk' });
    const expected = await calculateJwkThumbprint(jwk as never, 'sha256');
    const forms = [
      await signingKeyFrom(String(pair.privateKey.export({ format: 'pem', type: 'pkcs8' })), 'pkcs8'),
      await signingKeyFrom(JSON.stringify(pair.privateKey.export({ format: 'jwk' })), 'jwk'),
      await publicKeyFrom(String(pair.publicKey.export({ format: 'pem', type: 'spki' })), 'spki'),
      await publicKeyFrom(JSON.stringify(jwk), 'public jwk'),
      // A private key given to verify: its public half is used.
      await publicKeyFrom(String(pair.privateKey.export({ format: 'pem', type: 'pkcs8' })), 'pkcs8'),
    ];
    if (pair.publicKey.asymmetricKeyType === 'ec') {
      forms.push(
        await signingKeyFrom(String(pair.privateKey.export({ format: 'pem', type: 'sec1' })), 'sec1'),
      );
    }
    for (const form of forms) expect(form.keyId).toBe(expected);
    expect(expected).toMatch(/^[A-Za-z0-9_-]{43}$/);
  }
});

test('keys gatecheck does not sign with are refused in one line naming where they came from, never their bytes', async () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
  const ed = generateKeyPairSync('ed25519');
  const encrypted = String(
    ed.privateKey.export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: 'a passphrase' }),
  );
  const rsaPem = String(rsa.privateKey.export({ format: 'pem', type: 'pkcs8' }));
  const p384Pem = String(p384.privateKey.export({ format: 'pem', type: 'pkcs8' }));
  const octSecret = 'c2VjcmV0LXNlY3JldA';
  const cases: [() => Promise<unknown>, string][] = [
    [
      () => signingKeyFrom(rsaPem, 'vendor.key'),
      'vendor.key is an RSA key; gatecheck signs with Ed25519 or ECDSA P-256 keys',
    ],
    [
      () => signingKeyFrom(p384Pem, 'vendor.key'),
      'vendor.key is an EC key on secp384r1; gatecheck signs with Ed25519 or ECDSA P-256 keys',
    ],
    [
      () => signingKeyFrom(String(ed.publicKey.export({ format: 'pem', type: 'spki' })), 'vendor.key'),
      'vendor.key holds a public key; signing needs the private key (gatecheck keygen writes both)',
    ],
    [
      () => signingKeyFrom(encrypted, 'vendor.key'),
      'vendor.key is an encrypted private key; give it unencrypted',
    ],
    [
      () => signingKeyFrom(`{"kty":"oct","k":"${octSecret}"}`, 'vendor.key'),
      'vendor.key is a secret key (kty "oct"); gatecheck signs with Ed25519 or ECDSA P-256 keys',
    ],
    [() => signingKeyFrom('{"keys":[]}', 'vendor.key'), 'vendor.key is a JWK Set; give one key'],
    [
      () => signingKeyFrom('ssh-ed25519 AAAA…', 'vendor.key'),
      'vendor.key is neither a PEM key ("-----BEGIN …") nor a JSON Web Key',
    ],
    [
      () => signingKeyFrom(`${rsaPem.slice(0, 120)}\n-----END PRIVATE KEY-----\n`, 'vendor.key'),
      'vendor.key is not a usable PEM key',
    ],
    [
      () => readKeyText({ env: 'GATECHECK_TEST_NO_SUCH_KEY' }, {}),
      'environment variable GATECHECK_TEST_NO_SUCH_KEY is not set',
    ],
    [() => readKeyText({ env: 'K' }, { K: ' ' }), 'environment variable K is empty'],
    [
      () => readKeyText({ file: '/nonexistent/vendor.key', given: 23 }),
      'no file by the name given (23 characters, not repeated here in case it is a key)',
    ],
  ];
  // Every case's key material: the PEM bodies' lines and the secret key's value.
  const secretLines = [
    ...[rsaPem, p384Pem, encrypted, String(ed.privateKey.export({ format: 'pem', type: 'pkcs8' }))]
      .flatMap((pem) => pem.split('\n'))
      .filter((l) => /^[A-Za-z0-9+/=]{20,}$/.test(l)),
    octSecret,
  ];
  for (const [load, message] of cases) {
    const error = await load().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, message).toBeInstanceOf(KeyError);
    const text = (error as Error).message;
    expect(text.startsWith(message), text).toBe(true);
    expect(text).not.toContain('\n');
    for (const line of secretLines) expect(text).not.toContain(line);
  }
});

test('a key source is a file or env:NAME', () => {
  expect(parseKeySource('keys/vendor.key')).toEqual({ file: 'keys/vendor.key', given: 15 });
  expect(parseKeySource('env:GATECHECK_SIGNING_KEY')).toEqual({ env: 'GATECHECK_SIGNING_KEY' });
  expect(parseKeySource('env:1BAD')).toBe(
    'env:NAME needs an environment variable name (letters, digits, _); the 8 characters given are not one (not repeated here)',
  );
  expect(parseKeySource('')).toBe('must name a key file or env:NAME');
  // A key pasted where a file name goes (`--sign-key "$KEY"`) is refused without being repeated.
  for (const material of [
    '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIGatecheckNotARealKeyAtAll\n-----END PRIVATE KEY-----',
    '{ "kty": "OKP", "crv": "Ed25519", "d": "pW7Zh6EYgatecheck", "x": "abc" }',
  ]) {
    const refused = parseKeySource(material);
    expect(typeof refused).toBe('string');
    expect(refused).toContain('key material');
    expect(refused).not.toContain('gatecheck');
  }
});

test('gatecheck keygen: a pair that signs and verifies, the private key mode 0600 and never printed; an existing file is kept', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-keygen-'));
  try {
    for (const [type, format] of [
      ['ed25519', 'pem'],
      ['p256', 'jwk'],
    ] as const) {
      const prefix = path.join(dir, `vendor-${type}`);
      const run = captureIo();
      const code = await main(['keygen', '--out', prefix, '--type', type, '--format', format], run.io);
      expect(code, run.err.join('')).toBe(EXIT.conformant);
      const privateText = await readFile(`${prefix}.key`, 'utf8');
      expect((await stat(`${prefix}.key`)).mode & 0o777).toBe(0o600);
      const signing = await signingKeyFrom(privateText, 'generated');
      const verifying = await publicKeyFrom(await readFile(`${prefix}.pub`, 'utf8'), 'generated');
      expect(verifying.keyId).toBe(signing.keyId);
      expect(signing.algorithm).toBe(type === 'ed25519' ? 'Ed25519' : 'ECDSA P-256');
      expect(run.out.join('')).toContain(`key id ${signing.keyId}`);
      // Nothing of the private key on the console: no PEM body line, no JWK `d`.
      const printed = run.out.join('') + run.err.join('');
      const secret =
        format === 'jwk'
          ? [(JSON.parse(privateText) as { d: string }).d]
          : privateText.split('\n').filter((l) => l.length > 20 && !l.startsWith('-----'));
      const d = createPrivateKey(
        privateText.startsWith('{') ? { key: JSON.parse(privateText), format: 'jwk' } : privateText,
      ).export({ format: 'jwk' }).d as string;
      for (const s of [...secret, d]) expect(printed).not.toContain(s);
    }
    // A second keygen on the same prefix refuses, and the key is unchanged.
    const before = await readFile(path.join(dir, 'vendor-ed25519.key'), 'utf8');
    const again = captureIo();
    expect(await main(['keygen', '--out', path.join(dir, 'vendor-ed25519')], again.io)).toBe(EXIT.usage);
    expect(again.err.join('')).toMatch(
      /^gatecheck: keygen: .*vendor-ed25519\.key exists; --force replaces it\n$/,
    );
    expect(await readFile(path.join(dir, 'vendor-ed25519.key'), 'utf8')).toBe(before);
    // --force replaces it, still 0600 even where the file was readable by others.
    await chmod(path.join(dir, 'vendor-ed25519.key'), 0o644);
    expect(await main(['keygen', '--out', path.join(dir, 'vendor-ed25519'), '--force'], captureIo().io)).toBe(
      EXIT.conformant,
    );
    expect((await stat(path.join(dir, 'vendor-ed25519.key'))).mode & 0o777).toBe(0o600);
    expect(await readFile(path.join(dir, 'vendor-ed25519.key'), 'utf8')).not.toBe(before);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('keys read strictly: one key per file, no certificate, a JWK whose use, key_ops and alg allow the purpose', async () => {
  const ed = generateKeyPairSync('ed25519');
  const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const edPrivate = String(ed.privateKey.export({ format: 'pem', type: 'pkcs8' }));
  const ecPrivate = String(ec.privateKey.export({ format: 'pem', type: 'pkcs8' }));
  const edJwk = ed.privateKey.export({ format: 'jwk' });
  const ecPublicJwk = ec.publicKey.export({ format: 'jwk' });
  const refused: [() => Promise<unknown>, string][] = [
    [
      () => signingKeyFrom(`${edPrivate}${ecPrivate}`, 'vendor.key'),
      'vendor.key holds 2 keys (PRIVATE KEY, PRIVATE KEY); give a file with one key',
    ],
    [
      () => signingKeyFrom(JSON.stringify({ ...edJwk, key_ops: ['verify'] }), 'vendor.jwk'),
      'vendor.jwk is a JWK whose "key_ops" ["verify"] do not include "sign"',
    ],
    [
      () => signingKeyFrom(JSON.stringify({ ...edJwk, use: 'enc' }), 'vendor.jwk'),
      'vendor.jwk is a JWK with "use" "enc"; a signature key has "use": "sig"',
    ],
    [
      () => publicKeyFrom(JSON.stringify({ ...ecPublicJwk, alg: 'EdDSA' }), 'vendor.pub'),
      'vendor.pub is a JWK with "alg" "EdDSA", not one of "ES256" for its ECDSA P-256 key',
    ],
    [
      () => publicKeyFrom(JSON.stringify({ ...ecPublicJwk, key_ops: ['sign'] }), 'vendor.pub'),
      'vendor.pub is a JWK whose "key_ops" ["sign"] do not include "verify"',
    ],
  ];
  for (const [attempt, message] of refused) {
    await expect(attempt(), message).rejects.toThrow(new KeyError(message));
  }
  // What each purpose allows: a signing JWK that says so; its public half with verify; a private JWK to verify.
  await signingKeyFrom(JSON.stringify({ ...edJwk, use: 'sig', key_ops: ['sign'], alg: 'EdDSA' }), 'k');
  await signingKeyFrom(JSON.stringify({ ...edJwk, alg: 'Ed25519' }), 'k');
  await publicKeyFrom(JSON.stringify({ ...ecPublicJwk, use: 'sig', key_ops: ['verify'], alg: 'ES256' }), 'k');
  const fromPrivate = await publicKeyFrom(JSON.stringify({ ...edJwk, key_ops: ['sign'] }), 'k');
  expect(fromPrivate.fromPrivateKey).toBe(true);
  expect(
    (await publicKeyFrom(String(ed.publicKey.export({ format: 'pem', type: 'spki' })), 'k')).fromPrivateKey,
  ).toBeUndefined();
});
