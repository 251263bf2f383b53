/**
 * `gatecheckProjects()` in a consumer's own playwright.config.ts (docs/package.md "The suite as projects of
 * your playwright.config.ts"): the consumer's project, the suite's checks and its observers teardown all run,
 * and the conformance report holds the `observed.*` verdicts beside the checks'. A bounded slice of the
 * catalogue against the bundled mock the global setup starts. (tests/package/install.test.ts does the same
 * from the packed, installed package.)
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { cleanEnv, ROOT } from '../report/synthetic.ts';

const CONSUMER = path.join(import.meta.dirname, 'consumer-config');
const CLI = path.join(ROOT, 'node_modules/@playwright/test/cli.js');

test.describe.configure({ timeout: 180_000 });

test("the suite's checks and its observers teardown run beside the consumer's own project", async () => {
  const out = await mkdtemp(path.join(tmpdir(), 'gatecheck-consumer-config-'));
  try {
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
      (done) =>
        execFile(
          process.execPath,
          [
            CLI,
            'test',
            '-c',
            'playwright.config.ts',
            '--grep',
            '@rule:(auth\\.401\\.missing|observed\\.)|consumer keeps',
          ],
          { cwd: CONSUMER, env: cleanEnv({ CONSUMER_REPORT_DIR: out }), timeout: 170_000 },
          (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        ),
    );
    expect(code, `${stdout.slice(-3000)}\n${stderr.slice(-2000)}`).toBe(0);
    expect(stdout).toContain('[own]');
    expect(stdout).toContain('[gatecheck]');
    expect(stdout).toContain('[gatecheck-observers]');
    const report = JSON.parse(await readFile(path.join(out, 'conformance.json'), 'utf8')) as {
      rules: { id: string; verdict: string }[];
    };
    const verdict = (id: string) => report.rules.find((r) => r.id === id)?.verdict;
    expect(verdict('auth.401.missing')).toBe('pass');
    expect(verdict('observed.401.challenge')).toBe('pass');
    expect(verdict('observed.no-stack')).toBe('pass');
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
