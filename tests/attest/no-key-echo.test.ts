/**
 * No key material in any message (issue #42, "no secret leaves"): a private key pasted where a file name, a
 * key source or another value goes — PEM, one line of base64 of the PEM, of the PKCS#8 or SEC1 DER, base64url,
 * hex, a JWK — is refused without a byte of it: stdout, stderr and every file the command wrote (names and
 * contents) are searched for any 8-character piece of the key's secret part. In-process, in a temporary
 * working directory, with commands that stop before any run starts.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { main } from '../../cli/app.ts';
import { looksLikeKeyMaterial } from '../../cli/attest/key-material.ts';
import { EXIT } from '../../cli/exit-codes.ts';
import { captureIo } from './signing.ts';

interface KeyForm {
  readonly name: string;
  /** What is pasted. */
  readonly value: string;
  /** The part of it that is secret (the PEM's body, the JWK's members, or all of it). */
  readonly secret: string;
  /**
   * Only where a key goes (--sign-key, --key): a raw seed is recognised nowhere else for certain (by its
   * randomness elsewhere, about 99% of the time), but a key option never repeats a value it cannot read.
   */
  readonly keyOptionsOnly?: boolean;
}

function keyForms(): KeyForm[] {
  const ed = generateKeyPairSync('ed25519');
  const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const pem = String(ed.privateKey.export({ format: 'pem', type: 'pkcs8' }));
  const pemBody = pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s/g, '');
  const pkcs8 = ed.privateKey.export({ format: 'der', type: 'pkcs8' });
  const sec1 = ec.privateKey.export({ format: 'der', type: 'sec1' });
  const ecPkcs8 = ec.privateKey.export({ format: 'der', type: 'pkcs8' });
  const jwk = ec.privateKey.export({ format: 'jwk' });
  const whole = (name: string, value: string): KeyForm => ({ name, value, secret: value });
  return [
    { name: 'PEM', value: pem, secret: pemBody },
    whole('base64 of the PEM (base64 -w0 vendor.key)', Buffer.from(pem).toString('base64')),
    whole('base64 of the PKCS#8 DER', pkcs8.toString('base64')),
    whole('base64 of a P-256 PKCS#8 DER', ecPkcs8.toString('base64')),
    whole('base64 of the SEC1 DER', sec1.toString('base64')),
    whole('base64url of the PKCS#8 DER', ecPkcs8.toString('base64url')),
    whole('hex of the PKCS#8 DER', pkcs8.toString('hex')),
    whole('the PEM body on one line', pemBody),
    { name: 'JWK', value: JSON.stringify(jwk), secret: `${jwk.d}${jwk.x}${jwk.y}` },
    // Recognised by nothing but its length: a raw Ed25519 seed.
    { ...whole('base64url of a raw 32-byte seed', String(jwk.d)), keyOptionsOnly: true },
  ];
}

/** Every 8-character piece of `secret`. */
function pieces(secret: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 8 <= secret.length; i++) out.push(secret.slice(i, i + 8));
  return out;
}

/** Names and contents of the files under `dir`, except those the test put there (`own`). */
async function writtenText(dir: string, own: readonly string[]): Promise<string> {
  const parts: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (own.includes(path.relative(dir, file))) continue;
    parts.push(file);
    if (entry.isFile()) parts.push(await readFile(file, 'utf8'));
  }
  return parts.join('\n');
}

const OWN_FILES = ['conformance.intoto.jsonl', 'vendor.pub', 'blobs'];

/** The places a key can be pasted by mistake; `v` is the pasted value. Each stops before a run starts. */
const PLACES: readonly [string, (v: string) => string[]][] = [
  ['run --sign-key', (v) => ['--sign-key', v]],
  ['run --sign-key=', (v) => [`--sign-key=${v}`]],
  ['merge-reports --sign-key', (v) => ['merge-reports', 'blobs', '--sign-key', v]],
  ['verify --key', (v) => ['verify', 'conformance.intoto.jsonl', '--key', v]],
  ['verify <statement>', (v) => ['verify', v, '--key', 'vendor.pub']],
  ['verify --report', (v) => ['verify', 'conformance.intoto.jsonl', '--key', 'vendor.pub', '--report', v]],
  ['run --profile', (v) => ['--profile', v]],
  ['run --report-dir', (v) => ['--profile', 'missing.profile.json', '--report-dir', v]],
  ['run --base-url', (v) => ['--base-url', v]],
  ['run --seed', (v) => ['--seed', v]],
  ['merge-reports <dir>', (v) => ['merge-reports', v]],
  ['init <document>', (v) => ['init', v]],
  ['keygen --out', (v) => ['keygen', '--out', v]],
];

test('a private key pasted in any place is refused and never repeated: not on stdout, stderr or in a file', async () => {
  test.setTimeout(120_000);
  const forms = keyForms();
  const publicPem = String(generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }));
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-echo-'));
  const before = process.cwd();
  const leaks: string[] = [];
  try {
    for (const form of forms) {
      for (const [place, argv] of PLACES) {
        if (form.keyOptionsOnly && !/--sign-key|--key/.test(place)) continue;
        const work = path.join(dir, 'work');
        await rm(work, { recursive: true, force: true });
        await mkdir(work);
        // A statement, a public key and a blob directory, to get past them to the place under test.
        await writeFile(path.join(work, 'conformance.intoto.jsonl'), '{}\n');
        await writeFile(path.join(work, 'vendor.pub'), publicPem);
        await mkdir(path.join(work, 'blobs'));
        process.chdir(work);
        const { io, out, err } = captureIo();
        const code = await main(argv(form.value), io);
        process.chdir(before);
        const seen = [...out, ...err, await writtenText(work, OWN_FILES)].join('\n');
        const leaked = pieces(form.secret).find((piece) => seen.includes(piece));
        if (leaked)
          leaks.push(`${form.name} in ${place}: "${leaked}" in ${JSON.stringify(seen.slice(0, 300))}`);
        if (code === EXIT.conformant) leaks.push(`${form.name} in ${place}: exit 0`);
      }
    }
  } finally {
    process.chdir(before);
    await rm(dir, { recursive: true, force: true });
  }
  expect(leaks).toEqual([]);
});

test('a key given where a key file goes: one line with its length and the accepted forms, exit 2', async () => {
  const [, oneLine] = keyForms();
  const value = (oneLine as KeyForm).value;
  for (const argv of [
    ['--sign-key', value],
    ['verify', 'conformance.intoto.jsonl', '--key', value],
  ]) {
    const { io, out, err } = captureIo();
    expect(await main(argv, io)).toBe(EXIT.usage);
    expect(out).toEqual([]);
    expect(err).toHaveLength(1);
    expect(err[0]).toContain(`${value.length} characters`);
    expect(err[0]).toMatch(/a key file.*env:NAME/);
    expect(err[0]?.trimEnd()).not.toContain('\n');
  }
});

test('a base URL with a password or a key in its query: a usage error shows neither', async () => {
  for (const url of [
    'https://vendor:s3cretPassw0rd@api.example/?api_key=k3yInTheQuery',
    'ftp://vendor:s3cretPassw0rd@api.example/#k3yInTheQuery',
  ]) {
    const { io, out, err } = captureIo();
    expect(await main(['--base-url', url], io)).toBe(EXIT.usage);
    const seen = [...out, ...err].join('');
    expect(seen).toContain('--base-url');
    expect(seen).toContain('[redacted]');
    expect(seen).not.toContain('s3cretPassw0rd');
    expect(seen).not.toContain('k3yInTheQuery');
  }
});

test('names that only look long are still names: paths, report directories, commit-named folders are not taken for keys', () => {
  for (const name of [
    // Absolute paths as a CI runner has them, made here rather than written as this or any machine's.
    path.resolve('vendor-api', 'vendor-api', 'keys', 'vendor'),
    path.join(tmpdir(), 'gatecheck-keygen-Ab12Cd', 'vendor'),
    'reports-for-the-nightly-run-against-staging-01',
    'MCP-server-conformance-reports-2026-11-27-nightly',
    '3f2c9a8d7e6b5a4c3d2e1f0a9b8c7d6e5f4a3b2c',
    'keys/vendor.key',
    'env:GATECHECK_SIGNING_KEY',
  ]) {
    expect(looksLikeKeyMaterial(name), name).toBe(false);
  }
});
