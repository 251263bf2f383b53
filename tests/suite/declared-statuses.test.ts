/**
 * Declared deviations from the seed (issue #66), end to end through the real bin: a target answering POST 201 and
 * DELETE 204 (the mock's defects post-201 and delete-204, what NetBox or SendGrid document) is conformant to
 * the interface a profile declaring exactly that describes — the deviations named in the verdict, summary.md
 * and the signed statement, which `gatecheck verify` recomputes — while the same target under the seed's own
 * profile still fails success.200.post: the seed is not weakened.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXIT } from '../../cli/exit-codes.ts';
import type { ConformanceReport } from '../../specs/report/model.ts';
import { type Scratch, scratch } from '../cli/cli.ts';
import { mockProfile } from '../helpers/declared-profiles.ts';
import { mockForTests } from '../helpers/mock-for-tests.ts';

test.describe.configure({ timeout: 240_000 });

const WRITES = 'success.*';
const mock = mockForTests({ host: '127.0.0.1', defects: ['post-201', 'delete-204'] });
let s: Scratch;
test.beforeEach(async () => {
  s = await scratch();
});
test.afterEach(async () => s.dispose());

async function profileFile(name: string, declared: boolean): Promise<string> {
  const p = mockProfile();
  delete p.$schema;
  if (declared) p.endpoints.collection.declaredStatuses = { post: 201, put: 200, delete: 204 };
  const file = path.join(s.dir, name);
  await writeFile(file, JSON.stringify(p, null, 2));
  return file;
}

test('a target answering POST 201 / DELETE 204, declared so: exit 0, the deviations in the verdict, summary.md and the verified statement', async () => {
  const pair = generateKeyPairSync('ed25519');
  await writeFile(
    path.join(s.dir, 'vendor.pub'),
    String(pair.publicKey.export({ format: 'pem', type: 'spki' })),
  );
  const run = await s.gatecheck(
    [
      '--base-url',
      mock.url,
      '--profile',
      await profileFile('declared.profile.json', true),
      '--only',
      WRITES,
      '--sign-key',
      'env:GATECHECK_TEST_SIGNING_KEY',
    ],
    { GATECHECK_TEST_SIGNING_KEY: String(pair.privateKey.export({ format: 'pem', type: 'pkcs8' })) },
  );
  expect(run.code, run.stdout + run.stderr).toBe(EXIT.conformant);
  const report = JSON.parse(
    await readFile(path.join(s.dir, 'reports/conformance.json'), 'utf8'),
  ) as ConformanceReport;
  for (const id of ['success.200.post', 'success.200.delete'])
    expect(report.rules.find((r) => r.id === id)?.verdict, id).toBe('pass');
  const deviations =
    '2 deviations from the seed: POST answers 201 (seed §4 rule 2: 200), DELETE answers 204 (seed §4 rule 2: 200)';
  expect(report.conformance.statement).toContain(deviations);
  expect(run.stdout).toContain(
    'Declared deviations from the seed: POST answers 201 (seed §4 rule 2: 200); DELETE answers 204',
  );
  const summary = await readFile(path.join(s.dir, 'reports/summary.md'), 'utf8');
  expect(summary).toContain('Declared deviations from the seed (2):');
  expect(summary).toContain(
    '- POST answers 201 (seed §4 rule 2: 200) (`endpoints.collection.declaredStatuses.post`)',
  );

  const verify = await s.gatecheck(['verify', 'reports/conformance.intoto.jsonl', '--key', 'vendor.pub']);
  expect(verify.code, verify.stdout + verify.stderr).toBe(EXIT.conformant);
  expect(verify.stdout).toContain(deviations);
  const envelope = JSON.parse(await readFile(path.join(s.dir, 'reports/conformance.intoto.jsonl'), 'utf8'));
  const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));
  expect(statement.predicate.declaration.deviations.map((d: { text: string }) => d.text)).toEqual([
    'POST answers 201 (seed §4 rule 2: 200)',
    'DELETE answers 204 (seed §4 rule 2: 200)',
  ]);
});

test('the same target under the seed profile still fails success.200.post and success.200.delete', async () => {
  const run = await s.gatecheck([
    '--base-url',
    mock.url,
    '--profile',
    await profileFile('seed.profile.json', false),
    '--only',
    WRITES,
  ]);
  expect(run.code, run.stdout + run.stderr).toBe(EXIT.nonConformant);
  const report = JSON.parse(
    await readFile(path.join(s.dir, 'reports/conformance.json'), 'utf8'),
  ) as ConformanceReport;
  expect(report.conformance.failing).toEqual(['success.200.post', 'success.200.delete']);
  expect(report.target.declaration?.deviations).toEqual([]);
});
