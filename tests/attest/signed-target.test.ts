/**
 * The embedded profile names the target the run went to (cli/attest/sign-run.ts): a profile whose baseUrl the
 * run overrode (--base-url, BASE_URL) is embedded with the report's URL, so `verify`, which holds the profile's
 * target to the report's, accepts it; a profile naming another target than its report is refused. In-process:
 * the signer over a report directory, no run.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { envelopeOf } from '../../cli/attest/envelope.ts';
import { prepareSigner } from '../../cli/attest/sign-run.ts';
import { verifyStatement } from '../../cli/attest/verify.ts';
import { STATEMENT_FILE } from '../../specs/report/statement-note.ts';
import { installed, type Json, MOCK_PROFILE, reportBytes, testKey } from './signing.ts';

test('a profile whose baseUrl the run overrode is embedded with the URL the run used, and verifies', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-signed-target-'));
  try {
    const key = await testKey();
    await writeFile(path.join(dir, 'vendor.key'), key.privatePem);
    const profile = JSON.parse(await readFile(MOCK_PROFILE, 'utf8')) as Json;
    profile.baseUrl = 'https://staging.vendor.example';
    const profileFile = path.join(dir, 'target.profile.json');
    await writeFile(profileFile, JSON.stringify(profile));
    // The run went to another URL than the profile's (--base-url).
    const bytes = reportBytes((r) => {
      r.target.baseUrl = 'https://api.vendor.example';
      r.target.profile.source = 'target.profile.json';
    });
    await writeFile(path.join(dir, 'conformance.json'), bytes);
    const runId = (JSON.parse(bytes.toString('utf8')) as Json).run.id as string;

    const signer = await prepareSigner({
      source: { file: path.join(dir, 'vendor.key') },
      profilePath: profileFile,
      shardsMerged: null,
      env: {},
    });
    expect(await signer.sign(dir, runId)).toMatchObject({ ok: true });
    const statementText = await readFile(path.join(dir, STATEMENT_FILE), 'utf8');
    const result = verifyStatement({
      statementText,
      key: key.verifying,
      reportBytes: await readFile(path.join(dir, 'conformance.json')),
      installed: await installed(),
    });
    expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
    const bundle = envelopeOf(statementText);
    if (!('envelope' in bundle)) throw new Error(bundle.cause);
    const payload = JSON.parse(Buffer.from(bundle.envelope.payload, 'base64').toString('utf8')) as Json;
    expect(payload.predicate.profile.redacted.baseUrl).toBe('https://api.vendor.example');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
