/**
 * A worker's line to its runner's host (specs/run/host-socket.ts) when a runner of the same process id was
 * killed earlier: SIGKILL leaves the host's folder and socket file behind, and a runner that opens no host of
 * its own (the mutation run, the stand-in corpus) must not take that dead host for its own. Seen in a
 * fresh-clone CI run: a corpus batch's runner got process id 7377 again, its workers found a folder of 18:17
 * and every check that asked failed with ECONNREFUSED.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  hostAddressIn,
  hostFolderPrefix,
  runHostAddress,
  setUpEnvFromHost,
  setUpProfileFromHost,
} from '../../specs/run/host-socket.ts';

/** A process id no runner has: above every system's pid_max. */
const RUNNER_PID = 99_999_999;

test.skip(process.platform === 'win32', 'named pipes go with their process: no folder is left behind');

/** A runner's host folder whose process was killed: the socket file is there, nobody listens on it. */
async function deadHostFolder(): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), hostFolderPrefix(RUNNER_PID)));
  const child = spawn(process.execPath, [
    '-e',
    `require('node:net').createServer().listen(${JSON.stringify(hostAddressIn(folder))}, () => console.log('up'))`,
  ]);
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.kill('SIGKILL');
  await new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return folder;
}

test('a dead runner of the same process id left its host: the worker sets up as in a run without a host', async () => {
  const folder = await deadHostFolder();
  try {
    const address = runHostAddress(RUNNER_PID);
    expect(address).toBe(hostAddressIn(folder));
    expect(await setUpEnvFromHost(address)).toEqual({});
    expect(await setUpProfileFromHost(address)).toBeUndefined();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('a live host is asked as before: its variables and profile', async () => {
  const folder = mkdtempSync(join(tmpdir(), hostFolderPrefix(RUNNER_PID)));
  const host = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(req.url === '/env' ? { BASE_URL: 'http://127.0.0.1:1' } : { name: 'live' }));
  });
  await new Promise<void>((resolve) => host.listen(hostAddressIn(folder), resolve));
  try {
    const address = runHostAddress(RUNNER_PID);
    expect(await setUpEnvFromHost(address)).toEqual({ BASE_URL: 'http://127.0.0.1:1' });
    expect(await setUpProfileFromHost(address)).toEqual({ name: 'live' });
  } finally {
    await new Promise<void>((resolve) => host.close(() => resolve()));
    rmSync(folder, { recursive: true, force: true });
  }
});
