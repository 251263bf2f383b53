/**
 * The mock's `--help` names the command the user typed (docs/package.md): `gatecheck-mock` through the
 * package's bin, `npm run mock --` through the clone's script.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { cleanEnv, ROOT } from '../report/synthetic.ts';

function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(command, args, { cwd: ROOT, env: cleanEnv(), timeout: 60_000 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    ),
  );
}

test('gatecheck-mock --help → "Usage: gatecheck-mock [options]"', async () => {
  const stdout = await run(process.execPath, [path.join(ROOT, 'bin/gatecheck-mock.js'), '--help']);
  expect(stdout.split('\n')[0]).toBe('Usage: gatecheck-mock [options]');
  expect(stdout).not.toContain('npm run mock');
});

test('npm run mock -- --help → "Usage: npm run mock -- [options]"', async () => {
  const stdout = await run('npm', ['run', '--silent', 'mock', '--', '--help']);
  expect(stdout.split('\n')[0]).toBe('Usage: npm run mock -- [options]');
});

test('gatecheck-mock --list-defects suggests gatecheck-mock commands, never npm run mock', async () => {
  const stdout = await run(process.execPath, [path.join(ROOT, 'bin/gatecheck-mock.js'), '--list-defects']);
  expect(stdout.split('\n')[0]).toContain('(gatecheck-mock --defect <name>;');
  expect(stdout).not.toContain('npm run mock');
});
