/**
 * Profile fields that make rules skip with their reason rather than fail on a wrong guess (docs/profile.md):
 * `writer: "any"` (every authenticated identity may write, so `authz.403.lacking-scope` has no identity to
 * refuse), and a profile without `blocked` (the access.403.* rules cannot appear blocked). Run as a user
 * does, against a mock whose policy lets every authenticated identity write.
 */

import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Policy } from '../../mock/routing/policy.ts';
import { mockForTests } from '../helpers/mock-for-tests.ts';
import { MOCK_PROFILE, runSuite, type SuiteRun, specsOf } from '../helpers/run-suite.ts';

const ANY_WRITER: Policy = JSON.parse(
  readFileSync(new URL('../../fixtures/policy.json', import.meta.url), 'utf8').replaceAll(
    ', "scopes": ["users:write"]',
    '',
  ),
) as Policy;

const mock = mockForTests({ host: '127.0.0.1', policy: ANY_WRITER });
let dir: string;
test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gatecheck-writer-any-'));
});
test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function result(run: SuiteRun, id: string) {
  const [spec] = specsOf(run, id);
  const first = spec?.tests[0]?.results[0];
  return { status: first?.status, skip: first?.annotations.find((a) => a.type === 'skip')?.description };
}

test('writer "any": lacking-scope skips with the reason, the writes pass as admin; without "blocked" the access rules skip', async () => {
  expect(JSON.stringify(ANY_WRITER)).not.toContain('"scopes"');
  const profile = JSON.parse(readFileSync(MOCK_PROFILE, 'utf8')) as Record<string, unknown> & {
    endpoints: { collection: Record<string, unknown> };
  };
  profile.endpoints.collection.writer = 'any';
  delete profile.blocked;
  const profilePath = join(dir, 'writer-any.profile.json');
  await writeFile(profilePath, JSON.stringify(profile));
  const run = await runSuite({
    args: ['--workers=1', '--grep=@rule:(authz\\.403\\.lacking-scope|success\\.200\\.post|access\\.403\\.)'],
    env: { BASE_URL: mock.url, GATECHECK_PROFILE: profilePath },
  });
  expect(run.code, `${run.stdout.slice(0, 4000)}\n${run.stderr}`).toBe(0);
  expect(result(run, 'authz.403.lacking-scope')).toEqual({
    status: 'skipped',
    skip: 'profile lacks endpoints.collection.writer: writer "any": every authenticated identity may write, so no identity lacks write permission',
  });
  expect(result(run, 'success.200.post').status).toBe('passed');
  for (const id of ['access.403.blocked-client', 'access.403.unblocked-served'])
    expect(result(run, id)).toEqual({
      status: 'skipped',
      skip: 'profile lacks blocked.clients: no way to appear blocked declared',
    });
  expect(result(run, 'access.403.closed-path')).toEqual({
    status: 'skipped',
    skip: 'profile lacks blocked.closed: no request closed by configuration declared',
  });
});
