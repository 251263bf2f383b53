/**
 * A run whose reader goes away (`gatecheck … | head -1`) ends quietly in every process the CLI starts — the
 * Playwright runner, the suite's set-up, its reporters — keeps its own exit code and still writes its reports
 * (issue #40). `bash -c '… | head -1; echo "exit ${PIPESTATUS[0]}"'` gives gatecheck's own exit code.
 * Against the bundled mock, one rule.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { cleanEnv, type RunResult } from '../report/synthetic.ts';
import { gatecheckBin } from './cli.ts';

test.describe.configure({ timeout: 150_000 });

/** `<gatecheck args> | head -n 1` in bash; stdout is head's, `exit` gatecheck's own code. */
function piped(args: string, cwd: string): Promise<RunResult & { exit: number }> {
  const line = `"${process.execPath}" "${gatecheckBin()}" ${args} | head -n 1; echo "exit \${PIPESTATUS[0]}" >&2`;
  return new Promise((resolve) =>
    execFile('bash', ['-c', line], { cwd, env: cleanEnv(), timeout: 140_000 }, (error, stdout, stderr) => {
      const exit = Number(/exit (\d+)\s*$/.exec(stderr)?.[1] ?? -1);
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr, exit });
    }),
  );
}

let dir: string;
test.beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-closed-pipe-'));
});
test.afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

for (const [name, passthrough, reports] of [
  ['a run', '', ['conformance.json', 'summary.md', 'junit.xml']],
  ['a --reporter=json run', '-- --reporter=json', ['conformance.json', 'summary.md']],
] as const) {
  test(`${name} | head -n 1: head's line, no EPIPE or stack, gatecheck's exit code, the reports written`, async () => {
    const result = await piped(`--only auth.401.missing ${passthrough}`, dir);
    expect(result.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(result.stderr).not.toMatch(/EPIPE|Error:|\n\s+at /);
    expect(result.exit, result.stderr).toBe(0);
    for (const file of reports) expect(existsSync(path.join(dir, 'reports', file)), file).toBe(true);
  });
}

test('rules --json | head -n 1: quiet, exit 0', async () => {
  const result = await piped('rules --json', dir);
  expect(result.stdout).toBe('{\n');
  expect(result.stderr).toBe('exit 0\n');
  expect(result.exit).toBe(0);
});
