/**
 * Started from a terminal with its output sent to a file (`gatecheck … > run.txt`), a run writes no colour
 * codes into the file and names the HTML report where it is: `npx playwright show-report
 * reports/playwright-html`, not Playwright's own hint, which named no folder and came in cyan (issue #40).
 * `script` (util-linux) gives the run a terminal as its input, as a user's shell does.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { cleanEnv } from '../report/synthetic.ts';
import { gatecheckBin } from './cli.ts';

test.describe.configure({ timeout: 150_000 });

const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

test('a run from a terminal into a file: no colour codes, and the show-report line names reports/playwright-html', async () => {
  test.skip(!hasScript, 'no `script` command (util-linux) to give the run a terminal');
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-terminal-'));
  try {
    const line = `"${process.execPath}" "${gatecheckBin()}" --only auth.401.missing > run.txt 2>&1`;
    const env = cleanEnv();
    delete env.FORCE_COLOR;
    await new Promise<void>((done) =>
      execFile('script', ['-qec', line, '/dev/null'], { cwd: dir, env, timeout: 140_000 }, () => done()),
    );
    const text = await readFile(path.join(dir, 'run.txt'), 'utf8');
    expect(text).toMatch(/gatecheck: exit 0 \(/);
    expect(text.includes('\u001b'), text.slice(-800)).toBe(false);
    expect(text).toContain("Playwright's HTML report: npx playwright show-report reports/playwright-html\n");
    expect(text).not.toMatch(/show-report\s*\n/);
    expect(existsSync(path.join(dir, 'reports/playwright-html/index.html'))).toBe(true);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
