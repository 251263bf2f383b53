/**
 * A signed statement asked for and not made fails the run (cli/run.ts): the exit line says why, with the code
 * the run returns — never the report's "exit 0 (conformant)" printed above an exit code of 1.
 */
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXIT } from '../../cli/exit-codes.ts';
import { finish, type Io } from '../../cli/outcome.ts';

const SAMPLE = path.resolve(import.meta.dirname, '../../docs/sample-report');

test('a conformant report whose statement could not be made: exit 1, and the exit line says so', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-unsigned-'));
  try {
    for (const file of ['conformance.json', 'summary.md'])
      await copyFile(path.join(SAMPLE, file), path.join(dir, file));
    const report = JSON.parse(await readFile(path.join(dir, 'conformance.json'), 'utf8')) as {
      run: { id: string };
      conformance: { conformant: boolean };
    };
    expect(report.conformance.conformant).toBe(true);
    const printed: string[] = [];
    const io: Io = { out: (t) => printed.push(t), err: (t) => printed.push(t) };
    const failure = 'the signed statement asked for was not made: see the line above';
    expect(await finish(io, dir, report.run.id, 0, undefined, [], failure)).toBe(EXIT.nonConformant);
    expect(printed.join('').trim().split('\n').at(-1)).toBe(`gatecheck: exit 1 (${failure})`);
    // Without a failure the same report is conformant, said the same way.
    printed.length = 0;
    expect(await finish(io, dir, report.run.id, 0)).toBe(EXIT.conformant);
    expect(printed.join('').trim().split('\n').at(-1)).toBe('gatecheck: exit 0 (conformant)');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
