/**
 * The package's first hour (issue #31), from the packed tarball installed into an empty project, with the
 * commands a newcomer types: `npx gatecheck-mock`, `npx gatecheck`. Slow (npm install, from npm's cache when
 * it holds the packages); skipped, saying so, only when the npm registry cannot be reached.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from '@playwright/test';
import { type Consumer, createConsumer, registryReachable } from './consumer.ts';
import { packedTarball } from './packed.ts';
import { killAll, listening, type Started, start, stillRunning } from './processes.ts';

test.describe.configure({ mode: 'serial', timeout: 5 * 60_000 });

let consumer: Consumer | undefined;

test.beforeAll(async () => {
  test.setTimeout(8 * 60_000);
  test.skip(
    !(await registryReachable()),
    'npm registry unreachable (npm ping failed): cannot install the tarball',
  );
  consumer = await createConsumer(await packedTarball(), []);
});

test.afterAll(async () => {
  await consumer?.dispose();
});

function installed(): Consumer {
  if (!consumer) throw new Error('no consumer project');
  return consumer;
}

/**
 * Stops npx as a user does — `kill $!` in a script (SIGTERM to the npx process alone) or Ctrl-C in a terminal
 * (SIGINT to every process of the job, here npx's process group) — and waits for it to exit; the processes
 * it had started that are still running 10 s later.
 */
async function stop(npx: Started, how: 'kill $!' | 'Ctrl-C'): Promise<string[]> {
  const below = npx.descendants();
  if (how === 'kill $!') process.kill(npx.pid, 'SIGTERM');
  else process.kill(-npx.pid, 'SIGINT');
  const exited = await Promise.race([npx.exited, sleep(20_000).then(() => undefined)]);
  const left = new Set(await stillRunning([npx.pid, ...below.map((p) => p.pid)], 10_000));
  return [
    ...(exited === undefined ? [`${npx.pid} npx`] : []),
    ...below.filter((p) => left.has(p.pid)).map((p) => `${p.pid} ${p.command.slice(0, 120)}`),
  ];
}

for (const how of ['kill $!', 'Ctrl-C'] as const) {
  test(`\`npx gatecheck-mock\` stopped by ${how}: no process left, its port free`, async () => {
    const npx = start('npx', ['gatecheck-mock', '--port', '0'], installed().dir);
    let left: string[] = [];
    try {
      const port = Number((await npx.waitFor(/listening on http:\/\/127\.0\.0\.1:(\d+)/, 60_000))[1]);
      expect(npx.descendants().map((p) => p.command)).toEqual(
        expect.arrayContaining([expect.stringMatching(/node .*gatecheck-mock/)]),
      );
      left = await stop(npx, how);
      expect(left, `still running after ${how}:\n${npx.output().slice(-500)}`).toEqual([]);
      expect(await listening(port), `port ${port} still answers`).toBe(false);
    } finally {
      killAll([npx.pid, ...npx.descendants().map((p) => p.pid)]);
    }
  });

  test(`\`npx gatecheck\` stopped by ${how} mid-run: the CLI, Playwright, its workers and the mock all end`, async () => {
    // A fuzz budget that would take minutes, so a run still going after the signal is seen still going.
    const npx = start(
      'npx',
      ['gatecheck', '--budget', '1000000', '--report-dir', 'signal-report'],
      installed().dir,
    );
    let left: string[] = [];
    try {
      // A first test has ended: the runner, its workers and the embedded mock are up. (Playwright's runner
      // can miss a SIGINT that comes while its workers are still starting, before they handle it: 2 runs in 4
      // hung here when Ctrl-C came right at "Running N tests".)
      await npx.waitFor(/^\s+[✓✘-]\s+\d+ /m, 120_000);
      left = await stop(npx, how);
      expect(left, `still running after ${how}:\n${npx.output().slice(-800)}`).toEqual([]);
    } finally {
      killAll([npx.pid, ...npx.descendants().map((p) => p.pid)]);
    }
  });
}
