/**
 * A machine-readable reporter's document is all there is on stdout (issue #31): `playwright test
 * --reporter=json > out.json` and `gatecheck … -- --reporter=json > out.json` give a file a JSON parser reads,
 * the fuzz seed line and the CLI's own lines going to stderr instead; and `gatecheck rules --json | head`
 * ends quietly when head has read enough. Against the bundled mock, one rule each.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { REPORTER as CLI_REPORTER } from '../../cli/playwright.ts';
import { withConformanceReporter } from '../../cli/run.ts';
import { stdoutDocumentReporter } from '../../specs/lib/progress-stream.ts';
import { cleanEnv, PLAYWRIGHT_CLI, REPORTER, ROOT, type RunResult } from '../report/synthetic.ts';
import { gatecheckBin } from './cli.ts';

function run(command: string, args: readonly string[], cwd: string, env = cleanEnv()): Promise<RunResult> {
  return new Promise((resolve) =>
    execFile(command, args, { cwd, env, timeout: 120_000, maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

let dir: string;
test.beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-machine-output-'));
});
test.afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Playwright's JSON report, parsed, with the stdout it came from for the failure message. */
function parsedJson(stdout: string): { stats: { expected: number } } {
  try {
    return JSON.parse(stdout);
  } catch (error) {
    throw new Error(`stdout is not JSON (${(error as Error).message}); it begins:\n${stdout.slice(0, 300)}`);
  }
}

for (const reporters of ['json', `json,${REPORTER}`]) {
  test(`playwright test --reporter=${reporters.replace(ROOT, '')} → stdout is the JSON report alone; the seed line and summary on stderr`, async () => {
    const result = await run(
      process.execPath,
      [
        PLAYWRIGHT_CLI,
        'test',
        '--config',
        path.join(ROOT, 'playwright.config.ts'),
        `--reporter=${reporters}`,
        '--grep',
        '@rule:auth\\.401\\.missing',
        '--output',
        path.join(dir, 'out'),
      ],
      ROOT,
      cleanEnv({ GATECHECK_REPORT_DIR: path.join(dir, 'reports') }),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(parsedJson(result.stdout).stats.expected).toBeGreaterThan(0);
    expect(result.stderr).toContain('gatecheck fuzz: seed ');
    if (reporters !== 'json') expect(result.stderr).toContain('Report: ');
  });
}

test('gatecheck -- --reporter=json → stdout is the JSON report alone; the CLI’s lines and the seed on stderr', async () => {
  const result = await run(
    process.execPath,
    [
      gatecheckBin(),
      '--only',
      'auth.401.missing',
      '--report-dir',
      path.join(dir, 'reports'),
      '--',
      '--reporter=json',
    ],
    dir,
  );
  expect(result.code, result.stderr).toBe(0);
  expect(parsedJson(result.stdout).stats.expected).toBeGreaterThan(0);
  expect(result.stderr).toContain('gatecheck fuzz: seed ');
  expect(result.stderr).toMatch(/gatecheck: exit 0 \(/);
});

test('with the list reporter the seed line and the summary stay on stdout', async () => {
  const result = await run(
    process.execPath,
    [gatecheckBin(), '--only', 'auth.401.missing', '--report-dir', path.join(dir, 'reports')],
    dir,
  );
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toContain('gatecheck fuzz: seed ');
  expect(result.stdout).toMatch(/gatecheck: exit 0 \(/);
});

test('gatecheck rules --json | head -n 1 → head’s line, and no EPIPE or stack trace', async () => {
  const result = await run(
    'sh',
    ['-c', `"${process.execPath}" "${gatecheckBin()}" rules --json | head -n 1`],
    dir,
  );
  expect(result.stdout).toBe('{\n');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
});

test('which reporters print a document on stdout: json and junit without a file named', () => {
  expect(stdoutDocumentReporter([['list'], ['json']], {})).toBe('json');
  expect(stdoutDocumentReporter([['junit']], {})).toBe('junit');
  expect(stdoutDocumentReporter([['list'], ['dot'], ['html'], ['blob']], {})).toBeUndefined();
  expect(stdoutDocumentReporter([['junit', { outputFile: 'reports/junit.xml' }]], {})).toBeUndefined();
  expect(stdoutDocumentReporter([['json']], { PLAYWRIGHT_JSON_OUTPUT_FILE: 'r.json' })).toBeUndefined();
  expect(stdoutDocumentReporter([['json']], { PLAYWRIGHT_JSON_OUTPUT_NAME: 'r.json' })).toBeUndefined();
  expect(stdoutDocumentReporter([['json']], { PLAYWRIGHT_JUNIT_OUTPUT_FILE: 'j.xml' })).toBe('json');
});

test('the CLI adds its conformance reporter to a --reporter the passthrough names, in either spelling', () => {
  const reporter = withConformanceReporter(['--reporter=json']);
  expect(reporter.args).toEqual([`--reporter=json,${CLI_REPORTER}`]);
  expect(withConformanceReporter(['--reporter', 'list,junit', '--workers', '1']).args).toEqual([
    '--reporter',
    `list,junit,${CLI_REPORTER}`,
    '--workers',
    '1',
  ]);
  expect(withConformanceReporter([`--reporter=dot,${CLI_REPORTER}`]).args).toEqual([
    `--reporter=dot,${CLI_REPORTER}`,
  ]);
  expect(withConformanceReporter(['--reporter=list'], ['blob']).args).toEqual([
    `--reporter=list,blob,${CLI_REPORTER}`,
  ]);
  expect(withConformanceReporter(['--workers', '1'])).toEqual({
    args: ['--workers', '1'],
    reporters: undefined,
  });
});
