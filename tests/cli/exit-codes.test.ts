/**
 * The CLI's exit codes end to end (docs/cli.md): the real bin, the real suite, the bundled mock or the mock
 * with a defect mode that breaks a rule (docs/defects.md). Each run uses --only to check a handful of rules, so the file stays fast.
 */

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXIT } from '../../cli/exit-codes.ts';
import { type RunningMock, startMock } from '../../mock/server.ts';
import { requestsReceived, startDefectiveMock } from '../helpers/defect-mock.ts';
import { schemaErrors } from '../report/schema.ts';
import { closedPort } from './broken-target.ts';
import { MOCK_PROFILE, type Scratch, scratch } from './cli.ts';

// Each test starts Playwright (and sometimes the mock) in child processes: generous on a shared 2-core box.
test.describe.configure({ timeout: 120_000 });

const HANDFUL =
  'success.200.public,auth.401.missing,auth.401.challenge,authz.403.lacking-role,method.405.allow';

let s: Scratch;
test.beforeEach(async () => {
  s = await scratch();
});
test.afterEach(async () => s.dispose());

test('the bundled mock, a handful of rules → exit 0, verdict "Partial", and the summary names the reports', async () => {
  const run = await s.gatecheck(['--only', HANDFUL]);
  expect(run.code, run.stdout + run.stderr).toBe(EXIT.conformant);
  // Most MUST rules were left out by --only: the run says so instead of "Conformant".
  expect(run.stdout).toMatch(
    /◐ Partial: no rule fails, but \d+ of \d+ MUST rules were not checked \(\d+ not run\)/,
  );
  expect(run.stdout).not.toContain('Conformant at MUST level');
  expect(run.stdout).toMatch(/Not checked, by reason:\n {2}not selected in this run \(--only /);
  expect(run.stdout).toContain('gatecheck: exit 0 (partial: not every MUST rule was checked');
  expect(run.stdout).toContain(
    'Report: reports/conformance.html (also conformance.json, summary.md, junit.xml)',
  );
  const report = await s.report();
  expect(schemaErrors(report)).toEqual([]);
  expect(report.conformance).toMatchObject({ conformant: true, outcome: 'partial', complete: false });
  expect(report.run.filter).toBe(`--only ${HANDFUL}`);
  const checked = report.rules.filter((r) => r.verdict !== 'not-run').map((r) => r.id);
  expect(checked.sort()).toEqual(HANDFUL.split(',').sort());
  expect(report.target.baseUrl).toMatch(/^bundled mock \(http:\/\/127\.0\.0\.1:\d+\)$/);
});

test('--max-skipped-must: more MUST rules unchecked than allowed → exit 1; within the limit → exit 0', async () => {
  const strictCoverage = await s.gatecheck(['--only', 'success.200.public', '--max-skipped-must', '0']);
  expect(strictCoverage.code, strictCoverage.stdout + strictCoverage.stderr).toBe(EXIT.nonConformant);
  expect(strictCoverage.stdout).toMatch(
    /✘ Not conformant: (\d+) of \d+ MUST rules not checked \(\1 not run\), more than --max-skipped-must 0 allows/,
  );
  const failed = await s.report();
  expect(schemaErrors(failed)).toEqual([]);
  expect(failed.run.maxSkippedMust).toBe(0);
  expect(failed.conformance).toMatchObject({ conformant: false, outcome: 'not-conformant', failing: [] });

  const lenient = await s.gatecheck(['--only', 'success.200.public', '--max-skipped-must', '1000']);
  expect(lenient.code, lenient.stdout + lenient.stderr).toBe(EXIT.conformant);
  expect(lenient.stdout).toContain('gatecheck: exit 0 (partial, within --max-skipped-must 1000)');
});

test.describe('a target that breaks rules', () => {
  let target: RunningMock | undefined;
  test.afterEach(async () => {
    await target?.close();
    target = undefined;
  });

  test('a MUST rule broken → exit 1, the failing rule id named with its evidence', async () => {
    // An ordinary user reaches the admin path: authz.403.lacking-role (MUST) fails.
    target = await startDefectiveMock(['admin-open-to-users']);
    const run = await s.gatecheck([
      '--base-url',
      target.url,
      '--profile',
      MOCK_PROFILE,
      '--only',
      'authz.403.lacking-role',
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.nonConformant);
    expect(run.stdout).toContain('Not conformant: 1 MUST rule fails');
    expect(run.stdout).toContain('✘ authz.403.lacking-role [MUST]');
    const report = await s.report();
    expect(schemaErrors(report)).toEqual([]);
    expect(report.conformance.failing).toEqual(['authz.403.lacking-role']);
    expect(report.target.baseUrl).toBe(target.url);
    const evidence = report.rules.find((r) => r.id === 'authz.403.lacking-role')?.evidence[0];
    expect(evidence?.response?.status).toBe(200);
    expect(evidence?.replay).toContain('curl');
  });

  test('a SHOULD rule broken → warning and exit 0; with --strict → exit 1', async () => {
    // error="invalid_token" on the challenge of a request without credentials: a SHOULD of RFC 6750 §3.1.
    target = await startDefectiveMock(['bearer-error-on-missing']);
    const only = ['--only', 'bearer.challenge.missing-no-error,auth.401.missing'];
    const base = ['--base-url', target.url, '--profile', MOCK_PROFILE, ...only];

    const lenient = await s.gatecheck(base);
    expect(lenient.code, lenient.stdout + lenient.stderr).toBe(EXIT.conformant);
    const warned = await s.report();
    expect(warned.rules.find((r) => r.id === 'bearer.challenge.missing-no-error')?.verdict).toBe('warn');
    expect(warned.conformance.level).toBe('MUST');

    const strict = await s.gatecheck([...base, '--strict']);
    expect(strict.code, strict.stdout + strict.stderr).toBe(EXIT.nonConformant);
    const failed = await s.report();
    expect(failed.run.strict).toBe(true);
    expect(failed.conformance.failing).toEqual(['bearer.challenge.missing-no-error']);
  });

  test('a bad profile → exit 2 with one line naming the field, before any request', async () => {
    target = await startDefectiveMock(['admin-open-to-users']);
    const profile = path.join(s.dir, 'bad.profile.json');
    await writeFile(
      profile,
      JSON.stringify({
        name: 'x',
        endpoints: { admin: { path: '/admin', schemes: ['digest'] } },
        identities: {},
      }),
    );
    const run = await s.gatecheck(['--base-url', target.url, '--profile', profile]);
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr.trim().split('\n')).toEqual([
      'gatecheck: profile: /endpoints/admin/schemes/0 must be one of bearer, basic, apikey',
    ]);
    expect(await requestsReceived(target)).toBe(0);
  });
});

test('a closed port → exit 3, target unreachable, before Playwright starts', async () => {
  const port = await closedPort();
  const run = await s.gatecheck(['--base-url', `http://127.0.0.1:${port}`, '--profile', MOCK_PROFILE]);
  expect(run.code).toBe(EXIT.unreachable);
  expect(run.stderr.trim()).toBe(
    `gatecheck: target unreachable: GET http://127.0.0.1:${port}/users: connection refused`,
  );
  expect(run.stdout).not.toContain('Running');
});

test('a base URL with a wrong path prefix (every declared endpoint answers 404) → exit 3 in one line, before Playwright starts', async () => {
  const mock = await startMock({ port: 0, host: '127.0.0.1' });
  try {
    const base = `${mock.url}/api/v1`;
    const run = await s.gatecheck(['--base-url', base, '--profile', MOCK_PROFILE]);
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.unreachable);
    expect(run.stderr.trim()).toBe(
      `gatecheck: target not found: every endpoint of the profile answered 404 under ${base} ` +
        '(GET /api/v1/users, /api/v1/protected, /api/v1/admin); the base URL is probably wrong (a missing or extra path prefix?)',
    );
    expect(run.stdout).not.toContain('Running');
  } finally {
    await mock.close();
  }
});

test('bad usage → exit 2 with one line naming the flag', async () => {
  const cases: [string[], string][] = [
    [['--bogus'], "gatecheck: Unknown option '--bogus' (see --help)"],
    [['--seed', 'abc'], 'gatecheck: --seed must be an integer from -2147483648 to 2147483647, got "abc"'],
    [['--only', 'auth.401.missin'], 'gatecheck: --only: unknown rule id "auth.401.missin"'],
    [['--base-url', 'http://127.0.0.1:1'], 'gatecheck: --profile is required with --base-url'],
  ];
  for (const [args, line] of cases) {
    const run = await s.gatecheck(args);
    expect(run.code, args.join(' ')).toBe(EXIT.usage);
    expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(run.stderr).toContain(line);
  }
});
