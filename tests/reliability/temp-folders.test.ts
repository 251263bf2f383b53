/**
 * Nothing of a run or a mock stays in the system's temporary directory. A run's observers' store
 * (`gatecheck-observations-*`) and private-CA bundle (`gatecheck-ca-*`) go with the run's teardown, which
 * gatecheck's reporter calls — and with the runner's exit when the run has no such reporter (`--reporter=line`,
 * a user's own project). A mock's generated certificate (`gatecheck-mock-tls-*`) goes when it closes, or with
 * its process. Before shared/temp-folder.ts, every run with Playwright's reporters alone left its folder (1,042
 * of them after a day of this project's own runs).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startMock } from '../../mock/server.ts';
import { ROOT, runSuite } from '../helpers/run-suite.ts';

/** What the run or the mock left in `dir` under gatecheck's names. */
function leftBehind(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.startsWith('gatecheck-'));
}

test('a run whose reporters are Playwright’s own leaves no folder of its own in the temporary directory', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'temp-folders-'));
  try {
    const run = await runSuite({ args: ['--grep', '@rule:auth\\.401\\.missing'], env: { TMPDIR: dir } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.report?.stats.expected).toBeGreaterThan(0);
    expect(leftBehind(dir)).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a mock with a generated certificate removes the CA file’s folder when it closes', async () => {
  const mock = await startMock({ port: 0, host: '127.0.0.1', tls: 'generate' });
  const caPath = mock.caPath as string;
  expect(existsSync(caPath)).toBe(true);
  await mock.close();
  expect(existsSync(dirname(caPath))).toBe(false);
});

test('a mock with a generated certificate its script never closes leaves nothing once the process exits', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'temp-folders-'));
  try {
    const script = `import { startMock } from './mock/server.ts';
      const mock = await startMock({ port: 0, host: '127.0.0.1', tls: 'generate' });
      console.log(mock.caPath);
      process.exit(0);`;
    const out = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        { cwd: ROOT, env: { ...process.env, TMPDIR: dir }, timeout: 30_000 },
        (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      );
    });
    expect(out.trim().startsWith(join(dir, 'gatecheck-mock-tls-'))).toBe(true);
    expect(leftBehind(dir)).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
