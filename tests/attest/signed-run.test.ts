/**
 * `--sign-key` end to end with the real bin and suite (bounded by --only): a signed run's statement verifies
 * with `gatecheck verify`; summary.md and the HTML page name the statement, the key id and the digest; no
 * secret — the profile's, literal or from the environment, or the signing key's — is in any output of the run
 * (every file of the report directory, zips and the statement's payload opened; stdout; stderr). A bad key
 * stops the run before anything is sent. `merge-reports --sign-key` signs the merged report.
 */
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXIT } from '../../cli/exit-codes.ts';
import { profileSecrets } from '../../shared/secrets.ts';
import { SHORTEST_SEARCHED_SECRET } from '../../specs/lib/redact.ts';
import { MOCK_PROFILE, type Scratch, scratch } from '../cli/cli.ts';
import { scanForSecrets } from '../report/scan.ts';
import type { Json } from './signing.ts';

// Each test starts Playwright in child processes: generous on a shared 2-core box.
test.describe.configure({ timeout: 240_000 });

const HANDFUL = 'success.200.public,success.200.protected,auth.401.missing,authz.403.lacking-role';

let s: Scratch;
test.beforeEach(async () => {
  s = await scratch();
});
test.afterEach(async () => s.dispose());

/** The mock's profile with two of its credentials moved into environment variables, as CI would hand them out. */
async function envProfile(): Promise<{ file: string; env: Record<string, string>; raw: Json }> {
  const raw = JSON.parse(await readFile(MOCK_PROFILE, 'utf8')) as Json;
  const env = {
    GATECHECK_TEST_ADMIN_PASSWORD: raw.identities.admin.basic.password as string,
    GATECHECK_TEST_USER_APIKEY: raw.identities.user.apikey as string,
  };
  raw.identities.admin.basic.password = { env: 'GATECHECK_TEST_ADMIN_PASSWORD' };
  raw.identities.user.apikey = { env: 'GATECHECK_TEST_USER_APIKEY' };
  delete raw.$schema;
  const file = path.join(s.dir, 'target.profile.json');
  await writeFile(file, JSON.stringify(raw, null, 2));
  return { file, env, raw };
}

/** Every form of a private key a leak could take: the PEM body lines, the JWK's `d`, the raw scalar in hex. */
function keySecrets(privatePem: string): string[] {
  const d = createPrivateKey(privatePem).export({ format: 'jwk' }).d as string;
  return [
    ...privatePem.split('\n').filter((line) => line.length > 0 && !line.startsWith('-----')),
    d,
    Buffer.from(d, 'base64url').toString('hex'),
    Buffer.from(d, 'base64url').toString('base64'),
  ];
}

test('a signed run verifies; summary.md and the HTML page name statement, key id and digest; no secret in any output', async () => {
  const { file, env, raw } = await envProfile();
  const pair = generateKeyPairSync('ed25519');
  const privatePem = String(pair.privateKey.export({ format: 'pem', type: 'pkcs8' }));
  await writeFile(
    path.join(s.dir, 'vendor.pub'),
    String(pair.publicKey.export({ format: 'pem', type: 'spki' })),
  );
  const runEnv = { ...env, GATECHECK_TEST_SIGNING_KEY: privatePem };

  const run = await s.gatecheck(
    ['--profile', file, '--only', HANDFUL, '--sign-key', 'env:GATECHECK_TEST_SIGNING_KEY'],
    runEnv,
  );
  expect(run.code, run.stdout + run.stderr).toBe(EXIT.conformant);
  const signedLine =
    /gatecheck: signed statement reports\/conformance\.intoto\.jsonl: key ([A-Za-z0-9_-]{43}) \(Ed25519\), conformance\.json sha256 ([0-9a-f]{64})\n/.exec(
      run.stdout,
    );
  expect(signedLine, run.stdout).not.toBeNull();
  const [, keyId = '', digest = ''] = signedLine ?? [];
  // The exit line stays last.
  expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(/^gatecheck: exit 0 /);

  const verify = await s.gatecheck(['verify', 'reports/conformance.intoto.jsonl', '--key', 'vendor.pub']);
  expect(verify.code, verify.stdout + verify.stderr).toBe(EXIT.conformant);
  expect(verify.stdout).toContain(
    `gatecheck: verified: signed by key ${keyId} (Ed25519); conformance.json has the attested SHA-256 ${digest}`,
  );
  expect(verify.stdout).toMatch(
    /\nattests: Partial: no rule fails, but \d+ of \d+ MUST rules were not checked/,
  );
  expect(verify.stdout).toContain(`--only ${HANDFUL}`);

  const summary = await readFile(path.join(s.dir, 'reports/summary.md'), 'utf8');
  expect(summary).toContain('### Signed statement');
  expect(summary).toContain(
    `signed with key \`${keyId}\` (Ed25519); it attests \`conformance.json\` with SHA-256 \`${digest}\``,
  );
  expect(summary).toContain('npx gatecheck verify conformance.intoto.jsonl --key');
  const html = await readFile(path.join(s.dir, 'reports/conformance.html'), 'utf8');
  expect(html).toContain(`<section id="statement" data-key-id="${keyId}" data-report-sha256="${digest}">`);

  // The statement embeds the redacted profile; its references to the environment stay, their values do not.
  const envelope = JSON.parse(
    await readFile(path.join(s.dir, 'reports/conformance.intoto.jsonl'), 'utf8'),
  ) as Json;
  const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as Json;
  expect(statement.predicate.profile.redacted.identities.admin.basic.password).toEqual({
    env: 'GATECHECK_TEST_ADMIN_PASSWORD',
  });
  expect(statement.predicate.profile.source).toBe('target.profile.json');
  expect(statement.subject).toEqual([{ name: 'conformance.json', digest: { sha256: digest } }]);

  const secrets = [...profileSecrets(raw, env), ...keySecrets(privatePem)];
  expect(secrets).toEqual(expect.arrayContaining(Object.values(env)));
  const scanned = scanForSecrets([path.join(s.dir, 'reports')], secrets);
  expect(scanned.files).toBeGreaterThan(5);
  expect(scanned.hits).toEqual([]);
  // The fault trigger's `500` is a secret where it sits, but too short to search for: a duration may read 500.
  const searched = secrets.filter((secret) => secret.length >= SHORTEST_SEARCHED_SECRET);
  for (const output of [run.stdout, run.stderr, verify.stdout, verify.stderr]) {
    for (const secret of searched) expect(output.includes(secret), `${secret.slice(0, 4)}…`).toBe(false);
  }
});

test('a bad --sign-key stops the run before anything is sent: one line, exit 2, no report', async () => {
  const pair = generateKeyPairSync('ed25519');
  await writeFile(
    path.join(s.dir, 'vendor.pub'),
    String(pair.publicKey.export({ format: 'pem', type: 'spki' })),
  );
  const cases: [string[], string][] = [
    [
      ['--sign-key', 'env:GATECHECK_TEST_UNSET_KEY'],
      'gatecheck: --sign-key: environment variable GATECHECK_TEST_UNSET_KEY is not set\n',
    ],
    [
      ['--sign-key', 'vendor.pub'],
      `gatecheck: --sign-key: ${path.join(s.dir, 'vendor.pub')} holds a public key; signing needs the private key (gatecheck keygen writes both)\n`,
    ],
    [
      ['--base-url', 'http://127.0.0.1:9', '--profile', MOCK_PROFILE, '--sign-key', 'missing.key'],
      'gatecheck: --sign-key: no file by the name given (11 characters, not repeated here in case it is a key); give a key file (PEM or JWK) or env:NAME (a variable holding the key)\n',
    ],
  ];
  for (const [argv, line] of cases) {
    const run = await s.gatecheck(argv);
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.usage);
    expect(run.stderr).toBe(line);
    // Not even the preflight (the closed port would have been exit 3) and no report.
    expect(run.stdout).toBe('');
    expect(existsSync(path.join(s.dir, 'reports'))).toBe(false);
  }
});

test('merge-reports --sign-key signs the merged report: shardsMerged 2, and it verifies', async () => {
  const only = 'success.200.public,auth.401.missing';
  for (const shard of ['1/2', '2/2']) {
    const run = await s.gatecheck(['--shard', shard, '--only', only, '--report-dir', `shard-${shard[0]}`]);
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.conformant);
  }
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  await writeFile(path.join(s.dir, 'vendor.jwk'), JSON.stringify(privateKey.export({ format: 'jwk' })));
  await writeFile(path.join(s.dir, 'vendor.pub.jwk'), JSON.stringify(publicKey.export({ format: 'jwk' })));
  const merged = await s.gatecheck(['merge-reports', 'blob-report', '--sign-key', 'vendor.jwk']);
  expect(merged.code, merged.stdout + merged.stderr).toBe(EXIT.conformant);
  expect(merged.stdout).toMatch(
    /signed statement reports\/conformance\.intoto\.jsonl: key \S+ \(ECDSA P-256\)/,
  );
  const envelope = JSON.parse(
    await readFile(path.join(s.dir, 'reports/conformance.intoto.jsonl'), 'utf8'),
  ) as Json;
  const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as Json;
  expect(statement.predicate.run).toMatchObject({ merged: true, shard: null, shardsMerged: 2 });
  const verify = await s.gatecheck(['verify', 'reports/conformance.intoto.jsonl', '--key', 'vendor.pub.jwk']);
  expect(verify.code, verify.stdout + verify.stderr).toBe(EXIT.conformant);
  expect(verify.stdout).toContain(', merged from 2 shards');
  // A run that writes a new report removes the old statement: it attested the previous report.
  const again = await s.gatecheck(['merge-reports', 'blob-report']);
  expect(again.code, again.stdout + again.stderr).toBe(EXIT.conformant);
  expect(existsSync(path.join(s.dir, 'reports/conformance.intoto.jsonl'))).toBe(false);
});
