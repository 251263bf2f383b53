/**
 * `gatecheck-mock --openapi` refuses what it cannot stand in for with one line naming the flag, exit 2
 * (the house rule for a bad flag): no document at that path, a document with no operation, an empty value.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { cleanEnv, ROOT, type RunResult } from '../../report/synthetic.ts';

const MOCK_BIN = path.join(ROOT, 'bin/gatecheck-mock.js');

function mock(args: readonly string[], cwd: string): Promise<RunResult> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [MOCK_BIN, ...args],
      { cwd, env: cleanEnv(), timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

test('a document it cannot stand in for: one line naming --openapi, exit 2', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-stand-in-cli-'));
  try {
    const empty = path.join(dir, 'empty.json');
    await writeFile(
      empty,
      JSON.stringify({ openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: {} }),
    );
    const cases: [string[], RegExp][] = [
      [
        ['--openapi', path.join(dir, 'absent.yaml'), '--port', '0'],
        /^gatecheck mock: --openapi: cannot read .*absent\.yaml: no such file\n$/,
      ],
      [
        ['--openapi', path.join(dir, 'absent.yaml'), '--print-env'],
        /^gatecheck mock: --openapi: cannot read .*: no such file\n$/,
      ],
      [
        ['--openapi', empty, '--port', '0'],
        /^gatecheck mock: --openapi: .*empty\.json defines no operation to serve\n$/,
      ],
      [
        ['--openapi=', '--port', '0'],
        /^gatecheck mock: --openapi: expected an OpenAPI document, a file or an http\(s\) URL\n$/,
      ],
    ];
    for (const [args, line] of cases) {
      const run = await mock(args, dir);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(line);
      expect(run.stdout).toBe('');
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
