/**
 * Ctrl-C while the run's set-up project runs (right at "Running N tests"): Playwright 1.65's runner goes on into
 * the checks' phase after the interrupt and does not end by itself (2 runs of 2 still running after 60 s here,
 * with the CLI's watchdog switched off). The CLI's watchdog (cli/stop-watchdog.ts) must end it: the CLI exits
 * within its grace and kill periods, and nothing it started is left running.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from '@playwright/test';
import { STOP_WATCHDOG_TIMES } from '../../cli/stop-watchdog.ts';
import { killAll, start, stillRunning } from '../package/processes.ts';
import { gatecheckBin } from './cli.ts';

/**
 * Whether the runner misses the interrupt depends on where its set-up phase stands at that moment (here, with the
 * watchdog off, 1 try in 3 to 2 in 2 hung): two tries per test.
 */
for (const attempt of [1, 2])
  test(`Ctrl-C right at "Running N tests" (try ${attempt}): the CLI, Playwright and every worker end within the watchdog's time`, async () => {
    test.setTimeout(90_000);
    const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-ctrl-c-'));
    // A fuzz budget that would take minutes: a run still going after the signal is seen still going.
    const cli = start(process.execPath, [gatecheckBin(), '--budget', '1000000', '--report-dir', 'r'], dir);
    const seen = new Map<number, string>();
    let watching = true;
    const watch = (async () => {
      while (watching) {
        for (const p of cli.descendants()) seen.set(p.pid, p.command);
        await sleep(100);
      }
    })();
    try {
      await cli.waitFor(/Running \d+ tests? using/, 60_000);
      process.kill(-cli.pid, 'SIGINT');
      const bound = STOP_WATCHDOG_TIMES.graceMs + STOP_WATCHDOG_TIMES.killMs + 5_000;
      const exited = await Promise.race([cli.exited, sleep(bound).then(() => undefined)]);
      expect(
        exited,
        `the CLI still running ${bound} ms after Ctrl-C:\n${cli.output().slice(-1500)}`,
      ).toBeDefined();
      watching = false;
      await watch;
      const left = await stillRunning([...seen.keys()], 10_000);
      expect(left.map((pid) => `${pid} ${seen.get(pid)?.slice(0, 120)}`)).toEqual([]);
    } finally {
      watching = false;
      killAll([cli.pid, ...cli.descendants().map((p) => p.pid)]);
      await rm(dir, { recursive: true, force: true });
    }
  });
