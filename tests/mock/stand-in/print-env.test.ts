/**
 * `gatecheck-mock --openapi <doc> --print-env` (issue #43): the identities the mock issues for a document,
 * printed under the names `gatecheck init` writes for the same document (shared/credential-env.ts) — every
 * variable init's profile of the document names is printed, and what was printed works against a mock of
 * the document started afterwards.
 */
import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startMock } from '../../../mock/server.ts';
import { cleanEnv, ROOT, type RunResult } from '../../report/synthetic.ts';
import { writeStandInDocument } from './document.ts';

const MOCK_BIN = path.join(ROOT, 'bin/gatecheck-mock.js');
const GATECHECK_BIN = path.join(ROOT, 'bin/gatecheck.js');

function run(args: readonly string[], cwd: string): Promise<RunResult> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [...args],
      { cwd, env: cleanEnv(), timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

test('--print-env with --openapi: every variable init names for the document, and they work on a later start', async () => {
  const file = await writeStandInDocument();
  const dir = path.dirname(file);
  try {
    const printed = await run([MOCK_BIN, '--openapi', file, '--print-env'], dir);
    expect(printed.code, printed.stderr).toBe(0);
    for (const line of printed.stdout.trimEnd().split('\n'))
      expect(line).toMatch(/^(# |export GATECHECK_\w+=)/);
    const env = new Map(
      [...printed.stdout.matchAll(/^export (GATECHECK_\w+)=(.*)$/gm)].map(
        (m) => [m[1], m[2]] as [string, string],
      ),
    );

    const init = await run([GATECHECK_BIN, 'init', file, '--out', 'p.json', '--writes'], dir);
    expect(init.code, init.stderr).toBe(0);
    const names = [...(await readFile(path.join(dir, 'p.json'), 'utf8')).matchAll(/"env":\s*"(\w+)"/g)].map(
      (m) => m[1] as string,
    );
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => !env.has(name))).toEqual([]);

    // The printed token and key work against a mock started afterwards: derived, not drawn at random.
    const mock = await startMock({ openapi: file });
    try {
      const token = env.get('GATECHECK_USER_BEARER');
      const ok = await fetch(`${mock.url}/v2/pets`, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      const key = env.get('GATECHECK_USER_APIKEY');
      expect((await fetch(`${mock.url}/v2/keys/query?api_key=${key}`)).status).toBe(200);
    } finally {
      await mock.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
