/**
 * --waivers, --baseline, --strict-waivers on the command line: parsed into absolute paths, refused on a
 * shard, and checked before any request — a bad file is exit 2 with one line even when the target is a closed
 * port (a check made after the preflight would answer 3). The profile's `waivers` field is read relative to it.
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { main } from '../../cli/app.ts';
import { parseCommand } from '../../cli/args.ts';
import { EXIT } from '../../cli/exit-codes.ts';
import { gateEnv } from '../../cli/gate-options.ts';
import type { Io } from '../../cli/outcome.ts';
import { MOCK_PROFILE } from '../cli/cli.ts';

let dir: string;
test.beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-gate-'));
});
test.afterEach(async () => rm(dir, { recursive: true, force: true }));

function capture(): Io & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out(text: string) {
      io.stdout += text;
    },
    err(text: string) {
      io.stderr += text;
    },
  };
  return io;
}

const CLOSED = ['--base-url', 'http://127.0.0.1:9', '--profile', MOCK_PROFILE];

async function refused(args: readonly string[]): Promise<string> {
  const io = capture();
  const code = await main([...CLOSED, ...args], io);
  expect(code, io.stdout + io.stderr).toBe(EXIT.usage);
  expect(io.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  return io.stderr;
}

test('the flags parse into absolute paths; on a shard they are refused', () => {
  const command = parseCommand(
    ['--waivers', 'w.json', '--baseline', 'b/conformance.json', '--strict-waivers'],
    '/x',
  );
  expect(command).toMatchObject({
    kind: 'run',
    options: { gate: { waivers: '/x/w.json', baseline: '/x/b/conformance.json', strictWaivers: true } },
  });
  expect(parseCommand([], '/x')).toMatchObject({ kind: 'run', options: { only: [] } });
  expect((parseCommand([], '/x') as { options: object }).options).not.toHaveProperty('gate');
  expect(() => parseCommand(['--shard', '1/2', '--baseline', 'b.json'])).toThrow(
    '--waivers, --baseline and --strict-waivers belong to merge-reports, not to a --shard run',
  );
  expect(() => parseCommand(['--waivers', ' '])).toThrow('--waivers must name a JSON file');
});

test('a waiver naming an unknown rule: exit 2 with did-you-mean, before the preflight', async () => {
  await writeFile(
    path.join(dir, 'w.json'),
    JSON.stringify({ waivers: [{ rule: 'auth.401.chalenge', reason: 'r', until: '2026-12-31' }] }),
  );
  const line = await refused(['--waivers', path.join(dir, 'w.json')]);
  expect(line).toMatch(
    /^gatecheck: waivers .*w\.json: waivers\[0\]\.rule: unknown rule id "auth\.401\.chalenge"; did you mean auth\.401\.challenge/,
  );
});

test('a waiver without until, a baseline that is not a report, --strict-waivers alone: exit 2, one line each', async () => {
  await writeFile(
    path.join(dir, 'w.json'),
    JSON.stringify({ waivers: [{ rule: 'auth.401.challenge', reason: 'r' }] }),
  );
  expect(await refused(['--waivers', path.join(dir, 'w.json')])).toContain(
    'waivers[0].until must be a non-empty string (required)',
  );
  await writeFile(path.join(dir, 'b.json'), '{"not": "a report"}');
  expect(await refused(['--baseline', path.join(dir, 'b.json')])).toContain(
    'has no rules, catalogue.version or run.startedAt',
  );
  expect(await refused(['--baseline', path.join(dir, 'missing.json')])).toContain('cannot be read (ENOENT)');
  expect(await refused(['--strict-waivers'])).toContain('--strict-waivers needs waivers');
});

test("the profile's waivers field is read relative to the profile; --waivers wins; today is fixed once", async () => {
  await writeFile(path.join(dir, 'w.json'), JSON.stringify({ waivers: [] }));
  const profileFile = path.join(dir, 'target.profile.json');
  const fromProfile = await gateEnv(
    undefined,
    { raw: { waivers: 'w.json' }, file: profileFile },
    { GATECHECK_TODAY: '2026-11-27' },
  );
  expect(fromProfile).toMatchObject({
    GATECHECK_WAIVERS: path.join(dir, 'w.json'),
    GATECHECK_TODAY: '2026-11-27',
    GATECHECK_BASELINE: '',
  });
  await writeFile(path.join(dir, 'other.json'), '[]');
  const flag = await gateEnv(
    { waivers: path.join(dir, 'other.json'), strictWaivers: true },
    { raw: { waivers: 'w.json' }, file: profileFile },
    {},
  );
  expect(flag).toMatchObject({
    GATECHECK_WAIVERS: path.join(dir, 'other.json'),
    GATECHECK_STRICT_WAIVERS: '1',
  });
  expect(flag.GATECHECK_TODAY).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  // Nothing given: the variables are emptied, so one inherited from the shell never reaches the reporter unchecked.
  expect(await gateEnv(undefined, { raw: {}, file: profileFile }, {})).toEqual({
    GATECHECK_WAIVERS: '',
    GATECHECK_BASELINE: '',
    GATECHECK_STRICT_WAIVERS: '',
  });
  await expect(
    gateEnv(undefined, { raw: { waivers: 'w.json' }, file: profileFile }, { GATECHECK_TODAY: '27/11/2026' }),
  ).rejects.toThrow('GATECHECK_TODAY must be a date YYYY-MM-DD, got "27/11/2026"');
});
