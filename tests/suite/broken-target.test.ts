/**
 * The suite run against a target that breaks one rule fails on that rule, with the evidence a reader
 * needs: rule id, allowed answers, actual response, a curl line to replay it — and no credential. The
 * target is the mock with one defect mode on (docs/defects.md).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { DefectName } from '../../mock/defects/registry.ts';
import { startMock } from '../../mock/server.ts';
import type { Profile } from '../../specs/profile/types.ts';
import { requestsReceived, startDefectiveMock } from '../helpers/defect-mock.ts';
import { type JsonSpec, MOCK_PROFILE, runSuite, type SuiteRun, specsOf } from '../helpers/run-suite.ts';

const profile = JSON.parse(readFileSync(MOCK_PROFILE, 'utf8')) as Profile;

/** Every credential in the mock's profile: none may appear in a report or the output. */
function secrets(): string[] {
  const out: string[] = [];
  for (const id of Object.values(profile.identities)) {
    if (!id) continue;
    if (id.bearer) out.push(id.bearer);
    if (id.apikey) out.push(id.apikey);
    if (id.basic)
      out.push(
        id.basic.password,
        Buffer.from(`${id.basic.username}:${id.basic.password}`).toString('base64'),
      );
  }
  return out;
}

function expectNoSecrets(text: string): void {
  for (const s of secrets())
    expect(text.includes(s), `a credential of the profile leaked: ${s.slice(0, 4)}…`).toBe(false);
}

/** `--grep` for exactly these rules (a rule's tag ends the title, or a space follows it). */
const only = (...ids: string[]) =>
  `--grep=@rule:(${ids.map((id) => id.replace(/\./g, '\\.')).join('|')})($|\\s)`;

/** Runs the suite against the mock with `defect` on. */
async function runAgainst(
  defect: DefectName,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ run: SuiteRun }> {
  const target = await startDefectiveMock([defect]);
  try {
    const run = await runSuite({
      args: ['--workers=1', ...args],
      env: { BASE_URL: target.url, GATECHECK_PROFILE: MOCK_PROFILE, ...env },
    });
    return { run };
  } finally {
    await target.close();
  }
}

function failures(spec: JsonSpec): string[] {
  return spec.tests.flatMap((t) => t.results.flatMap((r) => r.errors.map((e) => e.message ?? '')));
}

function evidenceOf(spec: JsonSpec): Record<string, unknown>[] {
  return spec.tests.flatMap((t) =>
    t.results.flatMap((r) =>
      r.attachments
        .filter((a) => a.name === 'evidence.json' && a.body)
        .map(
          (a) => JSON.parse(Buffer.from(a.body ?? '', 'base64').toString('utf8')) as Record<string, unknown>,
        ),
    ),
  );
}

test('a target that drops WWW-Authenticate fails auth.401.challenge, with rule id, expected, actual and a redacted curl line', async () => {
  const { run } = await runAgainst('no-www-authenticate', [only('auth.401.challenge')]);
  expect(run.code, run.stderr).toBe(1);
  const specs = specsOf(run, 'auth.401.challenge');
  expect(specs.length).toBeGreaterThan(0);
  for (const spec of specs) {
    expect(spec.tests[0]?.status).toBe('unexpected');
    const [message = ''] = failures(spec);
    expect(message).toContain('[auth.401.challenge] MUST');
    expect(message).toContain('expected: a WWW-Authenticate header field');
    expect(message).toContain('actual:   no WWW-Authenticate header field');
    expect(message).toMatch(/response: 401 /);
    expect(message).toMatch(/replay: {3}curl -i -sS -X (GET|POST) 'http:\/\/127\.0\.0\.1:\d+\//);
    const [evidence] = evidenceOf(spec);
    expect(evidence).toMatchObject({
      rule: 'auth.401.challenge',
      expected: 'a WWW-Authenticate header field',
    });
    expect(evidence?.response).toMatchObject({ status: 401 });
  }
  // The test with wrong credentials carries them in its replay line: redacted.
  const withCredentials = specs.flatMap(failures).find((m) => m.includes("-H 'Authorization: "));
  expect(withCredentials).toMatch(/-H 'Authorization: (Bearer|Basic|Apikey) [^']{0,4}…\[redacted\]'/);
  expectNoSecrets(`${run.stdout}${run.stderr}${JSON.stringify(run.report)}`);
});

test('a target that lets an ordinary user into the admin path fails authz.403.lacking-role and nothing else selected', async () => {
  const { run } = await runAgainst('admin-open-to-users', [
    only('authz.403.lacking-role', 'success.200.admin'),
  ]);
  expect(run.code, run.stderr).toBe(1);
  const [refused] = specsOf(run, 'authz.403.lacking-role');
  expect(refused?.tests[0]?.status).toBe('unexpected');
  const message = failures(refused as JsonSpec).join('\n');
  expect(message).toContain('[authz.403.lacking-role] MUST');
  expect(message).toContain('expected: status 403 or 404 for the user identity with Bearer');
  expect(message).toContain('actual:   status 200');
  expect(message).toMatch(/-H 'Authorization: Bearer eyJh…\[redacted\]'/);
  // The admin still gets in: that rule passes.
  expect(specsOf(run, 'success.200.admin')[0]?.tests[0]?.status).toBe('expected');
  expectNoSecrets(`${run.stdout}${run.stderr}${JSON.stringify(run.report)}`);
});

test('a SHOULD violation is a warning by default and a failure with GATECHECK_STRICT=1', async () => {
  // No Bearer error code: bearer.challenge.invalid-token (SHOULD) is broken, nothing MUST is.
  const [lenient, strict] = await Promise.all([
    runAgainst('bearer-no-error-code', [only('bearer.challenge.invalid-token')]),
    runAgainst('bearer-no-error-code', [only('bearer.challenge.invalid-token')], { GATECHECK_STRICT: '1' }),
  ]);
  const [warned] = specsOf(lenient.run, 'bearer.challenge.invalid-token');
  expect(lenient.run.code, lenient.run.stderr).toBe(0);
  expect(warned?.tests[0]?.status).toBe('expected');
  const warning = warned?.tests[0]?.results[0]?.annotations.find((a) => a.type === 'warning');
  expect(warning?.description).toContain(
    '[bearer.challenge.invalid-token] expected Bearer error="invalid_token"',
  );
  expect(evidenceOf(warned as JsonSpec)[0]).toMatchObject({ rule: 'bearer.challenge.invalid-token' });

  const [failed] = specsOf(strict.run, 'bearer.challenge.invalid-token');
  expect(strict.run.code).toBe(1);
  expect(failed?.tests[0]?.status).toBe('unexpected');
  expect(failures(failed as JsonSpec).join('\n')).toContain('[bearer.challenge.invalid-token] SHOULD');
});

test('a bad profile stops the run before any request, with one line naming the field', async () => {
  const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = await mkdtemp(join(tmpdir(), 'gatecheck-profile-'));
  const bad = join(dir, 'bad.profile.json');
  const broken = structuredClone(profile) as unknown as { endpoints: { admin: { schemes: string[] } } };
  broken.endpoints.admin.schemes = ['digest'];
  await writeFile(bad, JSON.stringify(broken));
  const target = await startMock({ port: 0 });
  try {
    const run = await runSuite({
      args: ['--workers=1'],
      env: { BASE_URL: target.url, GATECHECK_PROFILE: bad },
    });
    expect(run.code).not.toBe(0);
    expect(`${run.stdout}${run.stderr}`).toContain(
      'profile: /endpoints/admin/schemes/0 must be one of bearer, basic, apikey',
    );
    expect(await requestsReceived(target)).toBe(0);
  } finally {
    await target.close();
    await rm(dir, { recursive: true, force: true });
  }
});
