/**
 * `kill <pid>` of a running `gatecheck` (a process manager, a CI job's timeout, `kill $!`): the CLI passes the
 * SIGTERM on to Playwright (cli/playwright.ts), whose runner does not handle it and ends without running its
 * exit handler — the one that removes its host's folder (specs/setup/run-host.ts). The CLI removes it once the
 * runner is gone: nothing of the run is left in the temporary directory, where a later runner given the same
 * process id would find it.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { hostFolderPrefix } from '../../specs/run/host-socket.ts';
import { killAll, start, stillRunning } from '../package/processes.ts';
import { gatecheckBin } from './cli.ts';

/** The host folders in the temporary directory made by any of these processes. */
function hostFoldersOf(pids: readonly number[]): string[] {
  const prefixes = pids.map(hostFolderPrefix);
  return readdirSync(tmpdir()).filter((name) => prefixes.some((prefix) => name.startsWith(prefix)));
}

test('SIGTERM to the CLI alone mid-run: it ends by SIGTERM, and its runner left no host folder behind', async () => {
  test.setTimeout(90_000);
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-sigterm-'));
  // A fuzz budget that would take minutes: the run is still going when the signal comes.
  const cli = start(process.execPath, [gatecheckBin(), '--budget', '1000000', '--report-dir', 'r'], dir);
  try {
    // A first test has ended: the runner's host is open and its workers asked it.
    await cli.waitFor(/^\s+[✓✘-]\s+\d+ /m, 60_000);
    const below = cli.descendants().map((p) => p.pid);
    expect(hostFoldersOf(below), 'the runner opened its host').not.toEqual([]);
    process.kill(cli.pid, 'SIGTERM');
    expect(await cli.exited).toEqual({ code: null, signal: 'SIGTERM' });
    expect(await stillRunning(below, 10_000)).toEqual([]);
    expect(hostFoldersOf(below)).toEqual([]);
    expect(existsSync(dir)).toBe(true);
  } finally {
    killAll([cli.pid, ...cli.descendants().map((p) => p.pid)]);
    await rm(dir, { recursive: true, force: true });
  }
});
