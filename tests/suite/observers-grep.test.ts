/**
 * Playwright's own `--grep` selects among the observer verdicts as `gatecheck --only` does (docs/observers.md
 * "Selecting rules"): Playwright applies its command line to no teardown project, so the observers' project
 * takes it as its own `grep` (specs/setup/playwright-grep.ts), and so does the CLI's `--only`, which it hands
 * to Playwright as `--grep`. Shown on a defect only an observer catches: a run that selects the checks alone
 * passes, one that also selects the observer fails it, and only it.
 */
import { expect, test } from '@playwright/test';
import { playwrightGrep } from '../../specs/setup/playwright-grep.ts';
import { MOCK_PROFILE as CLI_PROFILE, scratch } from '../cli/cli.ts';
import { startDefectiveMock } from '../helpers/defect-mock.ts';
import { type JsonSpec, MOCK_PROFILE, runSuite, type SuiteRun } from '../helpers/run-suite.ts';

test.describe.configure({ timeout: 240_000 });

const CLI = ['node', 'cli.js'];

test('--grep and --grep-invert are read in every form Playwright accepts, the last one winning', () => {
  expect(playwrightGrep([...CLI, 'test', '--grep', '@rule:auth'])).toEqual({ grep: /@rule:auth/gi });
  expect(playwrightGrep([...CLI, 'test', '--grep=a', '-g', 'b', '-gc'])).toEqual({ grep: /c/gi });
  expect(playwrightGrep([...CLI, 'test', '-G', 'x', '--grep-invert=/y/i'])).toEqual({ grepInvert: /y/i });
  expect(playwrightGrep([...CLI, 'test', '--workers', '2', 'specs/fuzz'])).toEqual({});
  // After `--`, and for another command or a worker's argv: nothing.
  expect(playwrightGrep([...CLI, 'test', '--', '--grep', 'x'])).toEqual({});
  expect(playwrightGrep([...CLI, 'show-report', '--grep', 'x'])).toEqual({});
  expect(playwrightGrep(['node', 'workerProcessEntry.js'])).toEqual({});
});

const isVerdict = (spec: JsonSpec) => spec.file.includes('observe/');
const failed = (run: SuiteRun) =>
  run.specs.filter((s) => s.tests.some((t) => t.status === 'unexpected')).map((s) => s.title);

async function grepRun(grep: string): Promise<SuiteRun> {
  const target = await startDefectiveMock(['basic-challenge-bare-on-failure']);
  try {
    return await runSuite({
      env: { BASE_URL: target.url, GATECHECK_PROFILE: MOCK_PROFILE },
      args: ['--grep', grep],
    });
  } finally {
    await target.close();
  }
}

test('a --grep that selects no observer rule runs none; one that selects observed.401.challenge fails it alone', async () => {
  // The auth.401 checks send failed Basic credentials, whose bare challenge only the observer judges.
  const checksOnly = await grepRun(String.raw`@rule:auth\.401\.`);
  expect(checksOnly.code, checksOnly.stderr.slice(-2000)).toBe(0);
  expect(checksOnly.specs.length).toBeGreaterThan(3);
  expect(checksOnly.specs.filter(isVerdict)).toEqual([]);

  const withObserver = await grepRun(String.raw`@rule:(auth\.401\.|observed\.401\.challenge)`);
  expect(withObserver.code, withObserver.stderr.slice(-2000)).toBe(1);
  expect(withObserver.specs.filter(isVerdict).map((s) => s.tags)).toEqual([
    expect.arrayContaining(['rule:observed.401.challenge']),
  ]);
  expect(failed(withObserver)).toEqual([withObserver.specs.find(isVerdict)?.title]);
});

test('the CLI hands --only to Playwright as --grep, and the observer rules follow it: passes with the checks alone, fails observed.401.challenge once it is selected', async () => {
  const target = await startDefectiveMock(['basic-challenge-bare-on-failure']);
  const cli = await scratch();
  try {
    const run = (only: string) =>
      cli.gatecheck([
        '--base-url',
        target.url,
        '--profile',
        CLI_PROFILE,
        '--only',
        only,
        '--report-dir',
        'r',
      ]);
    const checksOnly = await run('auth.401.*');
    expect(checksOnly.code, checksOnly.stdout.slice(-2000)).toBe(0);
    expect(checksOnly.stdout).not.toContain('[observers]');
    const withObserver = await run('auth.401.*,observed.401.challenge');
    expect(withObserver.code, withObserver.stdout.slice(-2000)).toBe(1);
    const verdicts = (await cli.report('r')).rules.filter((r) => r.verdict === 'fail').map((r) => r.id);
    expect(verdicts).toEqual(['observed.401.challenge']);
  } finally {
    await cli.dispose();
    await target.close();
  }
});
