/**
 * No credential in any report. Three layers: the Scrubber on strings; a synthetic suite that leaks the
 * profile's secrets everywhere a test can (the report must still hold none); and a real CLI run against a
 * target that fails rules with credentials in flight, after which every file in the report directory —
 * conformance.*, summary.md, JUnit XML and Playwright's HTML report, zips opened — is searched.
 */

import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { profileSecrets } from '../../shared/secrets.ts';
import { SHORTEST_SEARCHED_SECRET } from '../../specs/lib/redact.ts';
import { Scrubber } from '../../specs/report/scrub.ts';
import { startBrokenTarget } from '../cli/broken-target.ts';
import { MOCK_PROFILE, scratch } from '../cli/cli.ts';
import { scanForSecrets } from './scan.ts';
import { createProject, rule } from './synthetic.ts';

// Each test starts Playwright (and sometimes the mock) in child processes: generous on a shared 2-core box.
test.describe.configure({ timeout: 120_000 });

const mockProfile = JSON.parse(readFileSync(MOCK_PROFILE, 'utf8')) as {
  identities: Record<
    string,
    { bearer: string; apikey: string; basic: { username: string; password: string } }
  >;
  jwt: { privateJwk: Record<string, string> };
};

test.describe('which strings are secrets', () => {
  test('every credential of the profile, the Basic user-pass, and the private JWK members', () => {
    const secrets = profileSecrets({
      name: 'x',
      identities: {
        admin: {
          bearer: 'tok-admin-123',
          basic: { username: 'alice', password: 'pw-alice-1' },
          apikey: 'key-admin-1',
        },
      },
      jwt: {
        alg: 'HS256',
        secret: 'shared-hmac-secret',
        privateJwk: {
          kty: 'RSA',
          n: 'public-modulus',
          e: 'AQAB',
          d: 'priv-d',
          p: 'priv-p',
          q: 'priv-q',
          dp: 'priv-dp',
          dq: 'priv-dq',
          qi: 'priv-qi',
        },
        publicJwk: { kty: 'oct', k: 'oct-key-material' },
      },
    });
    expect(secrets.sort()).toEqual(
      [
        'tok-admin-123',
        'pw-alice-1',
        'alice:pw-alice-1',
        'key-admin-1',
        'shared-hmac-secret',
        'priv-d',
        'priv-p',
        'priv-q',
        'priv-dp',
        'priv-dq',
        'priv-qi',
        'oct-key-material',
      ].sort(),
    );
    expect(secrets).not.toContain('public-modulus');
  });
});

test.describe('the Scrubber', () => {
  const scrub = new Scrubber(['wonderland-admin', 'alice:wonderland-admin', 'gck_uJOdCwArCrSa05CMtM28']);

  test('known secrets and their base64 form are replaced, keeping a 4-character prefix', () => {
    const basic = Buffer.from('alice:wonderland-admin').toString('base64');
    const out = scrub.text(`password wonderland-admin; header Basic ${basic}; key gck_uJOdCwArCrSa05CMtM28!`);
    expect(out).not.toContain('wonderland-admin');
    expect(out).not.toContain(basic);
    expect(out).not.toContain('gck_uJOdCwArCrSa05CMtM28');
    expect(out).toContain('gck_…[redacted]');
  });

  test('credential-shaped text is redacted even when the secret is not known', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJib2IifQ.c2lnbmF0dXJlLWJ5dGVz';
    expect(scrub.text(`-H 'Authorization: Bearer ${jwt}'`)).toBe(
      "-H 'Authorization: Bearer eyJh…[redacted]'",
    );
    expect(scrub.text(`token=${jwt} end`)).toBe('token=eyJhbGciOiJSUzI1NiJ9.…[redacted] end');
    expect(scrub.text('Authorization: Apikey unknown-key-0123456789')).toBe(
      'Authorization: Apikey unkn…[redacted]',
    );
    expect(scrub.text('GET https://bob:hunter22@api.example/x')).toBe(
      'GET https://bob:…[redacted]@api.example/x',
    );
    // Already redacted text stays as it is; prose stays prose.
    expect(scrub.text('Authorization: Bearer eyJh…[redacted]')).toBe('Authorization: Bearer eyJh…[redacted]');
    expect(scrub.text('the Authorization header was missing')).toBe('the Authorization header was missing');
  });

  test('header maps: credential headers keep the scheme only', () => {
    expect(scrub.headers({ Authorization: 'Basic YWxpY2U6d29uZGVybGFuZC1hZG1pbg==', accept: '*/*' })).toEqual(
      {
        Authorization: 'Basic YWxp…[redacted]',
        accept: '*/*',
      },
    );
  });
});

test('the scanner finds a secret in a plain file, as base64, and inside a zip', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-scan-'));
  try {
    await writeFile(path.join(dir, 'clean.txt'), 'nothing here');
    await writeFile(path.join(dir, 'basic.txt'), Buffer.from('alice:wonderland-admin').toString('base64'));
    // A one-entry zip (PKWARE APPNOTE 4.3): local header, deflated data, central directory, end record.
    const name = Buffer.from('data.json');
    const data = deflateRawSync(Buffer.from('{"password":"wonderland-admin"}'));
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt16LE(name.length, 28);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(central.length + name.length, 12);
    end.writeUInt32LE(local.length + name.length + data.length, 16);
    await writeFile(path.join(dir, 'r.zip'), Buffer.concat([local, name, data, central, name, end]));

    const { files, hits } = scanForSecrets(
      [dir],
      profileSecrets({ identities: { a: { basic: { username: 'alice', password: 'wonderland-admin' } } } }),
    );
    expect(files).toBe(3);
    expect([...new Set(hits.map((h) => `${path.basename(h.file)} ${h.form}`))].sort()).toEqual([
      'basic.txt base64',
      'r.zip!data.json plain',
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a suite that leaks the profile secrets everywhere still yields reports without them', async () => {
  const admin = mockProfile.identities.admin;
  if (!admin) throw new Error('mock profile lacks the admin identity');
  const basic = Buffer.from(`${admin.basic.username}:${admin.basic.password}`).toString('base64');
  const leaks = {
    bearer: admin.bearer,
    apikey: admin.apikey,
    password: admin.basic.password,
    basic,
    d: mockProfile.jwt.privateJwk.d,
  };
  const project = await createProject({
    catalogue: [
      rule('leak.must', 'MUST'),
      rule('leak.should', 'SHOULD'),
      rule('leak.skip', 'MUST'),
      rule('leak.info', 'INFO'),
    ],
    profile: mockProfile,
    files: {
      'leak.spec.ts': `
import { expect, test } from '@playwright/test';
const L = ${JSON.stringify(leaks)};
test('leaks in evidence and error (' + L.apikey + ')', { tag: ['@must', '@rule:leak.must'] }, async () => {
  await test.info().attach('evidence.json', { contentType: 'application/json', body: JSON.stringify({
    rule: 'leak.must', expected: 'status 401', actual: 'status 200 with ' + L.password,
    request: { method: 'GET', url: 'http://admin:' + L.password + '@127.0.0.1:9/admin?key=' + L.apikey,
      headers: { Authorization: 'Bearer ' + L.bearer, 'X-Api-Key': L.apikey, cookie: 'sid=' + L.bearer }, body: L.d },
    response: { status: 200, headers: { 'set-cookie': 'sid=' + L.apikey }, body: 'echo Basic ' + L.basic },
    replay: "curl -H 'Authorization: Basic " + L.basic + "' http://127.0.0.1:9/admin",
  }) });
  expect(L.bearer, 'token ' + L.bearer + ' and key ' + L.d).toBe('nope');
});
test('leaks in a warning', { tag: ['@should', '@rule:leak.should'] }, async () => {
  test.info().annotations.push({ type: 'warning', description: 'saw Authorization: Apikey ' + L.apikey });
});
test('leaks in a skip reason', { tag: ['@must', '@rule:leak.skip'] }, async () => {
  test.skip(true, 'profile lacks x: ' + L.password);
});
test('leaks in an observation', { tag: ['@info', '@rule:leak.info'] }, async () => {
  test.info().annotations.push({ type: 'observation', description: 'password ' + L.password + ' basic ' + L.basic });
});
`,
    },
  });
  try {
    const run = await project.run();
    expect(run.code).not.toBe(0);
    const report = await project.report();
    expect(report.conformance.failing).toEqual(['leak.must']);
    const ours = ['conformance.json', 'conformance.html', 'summary.md'].map((f) =>
      path.join(project.reportDir, f),
    );
    const { hits } = scanForSecrets(ours, profileSecrets(mockProfile));
    expect(hits).toEqual([]);
    // Redacted, not dropped: the reader still sees which credential was meant.
    const evidence = report.rules[0]?.evidence[0];
    expect(evidence?.request.headers.Authorization).toBe('Bearer eyJh…[redacted]');
    expect(evidence?.replay).toContain('Authorization: Basic YWxp…[redacted]');
  } finally {
    await project.dispose();
  }
});

test('after a real run with failing rules, no file in the report directory holds a profile secret', async () => {
  const target = await startBrokenTarget('open');
  const s = await scratch();
  try {
    // Credentials of every scheme in flight, and failures (evidence, error messages) for each.
    const only = [
      'success.200.protected',
      'auth.scheme.case-insensitive',
      'auth.401.invalid-basic',
      'auth.401.invalid-apikey',
      'authz.403.lacking-role',
      'jwt.claims.exp',
    ].join(',');
    const run = await s.gatecheck(['--base-url', target.url, '--profile', MOCK_PROFILE, '--only', only]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const reportDir = path.join(s.dir, 'reports');
    const { files, hits } = scanForSecrets([reportDir], profileSecrets(mockProfile));
    const names = scanForSecrets([reportDir], []).files;
    expect(names).toBeGreaterThanOrEqual(6);
    expect(files).toBe(names);
    expect(hits).toEqual([]);
    // The terminal output is a report too.
    expect(scanForSecretsInText(run.stdout + run.stderr)).toEqual([]);
  } finally {
    await target.close();
    await s.dispose();
  }
});

function scanForSecretsInText(text: string): string[] {
  return profileSecrets(mockProfile).filter(
    (secret) =>
      secret.length >= SHORTEST_SEARCHED_SECRET &&
      (text.includes(secret) || text.includes(Buffer.from(secret).toString('base64'))),
  );
}
