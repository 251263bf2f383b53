/**
 * After Ctrl-C the CLI waits for Playwright, but not for ever (cli/stop-watchdog.ts): a child that ignores the
 * first SIGINT gets a second one after the grace period, and one that ignores SIGINT altogether is killed;
 * a watchdog disarmed in time sends nothing.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect, test } from '@playwright/test';
import { stopWatchdog } from '../../cli/stop-watchdog.ts';

const TIMES = { graceMs: 300, killMs: 300 };

/**
 * A stand-in for Playwright's runner: writes `ready`, then a line per SIGINT it receives, and exits at the
 * `exitAt`-th one (never when 0), or on its own after `lifeMs`.
 */
function runner(exitAt: number, lifeMs = 30_000): ChildProcess {
  const code = `
    let n = 0;
    process.on('SIGINT', () => { n += 1; process.stdout.write('SIGINT ' + n + '\\n'); if (n === ${exitAt}) process.exit(7); });
    setTimeout(() => process.exit(0), ${lifeMs});
    process.stdout.write('ready\\n');`;
  return spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
}

async function started(child: ChildProcess): Promise<() => string> {
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  while (!out.includes('ready')) await once(child.stdout as NodeJS.ReadableStream, 'data');
  return () => out;
}

async function ended(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const t0 = performance.now();
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  return { code, signal, ms: performance.now() - t0 };
}

test('a runner that misses Ctrl-C gets a second SIGINT after the grace period, and stops at it', async () => {
  const child = runner(1);
  const output = await started(child);
  stopWatchdog(child, TIMES).arm(); // the first Ctrl-C went by unseen
  const end = await ended(child);
  expect(end).toMatchObject({ code: 7, signal: null });
  expect(end.ms).toBeGreaterThanOrEqual(TIMES.graceMs - 50);
  expect(output()).toContain('SIGINT 1');
});

test('a runner that ignores SIGINT altogether is killed after grace + kill', async () => {
  const child = runner(0);
  await started(child);
  stopWatchdog(child, TIMES).arm();
  const end = await ended(child);
  expect(end.signal).toBe('SIGKILL');
  expect(end.ms).toBeGreaterThanOrEqual(TIMES.graceMs + TIMES.killMs - 50);
});

test('armed again by a second Ctrl-C, it still sends one SIGINT', async () => {
  const child = runner(0);
  const output = await started(child);
  const watchdog = stopWatchdog(child, TIMES);
  watchdog.arm();
  await new Promise((resolve) => setTimeout(resolve, 100));
  watchdog.arm();
  expect((await ended(child)).signal).toBe('SIGKILL');
  expect(output().match(/SIGINT \d/g)).toEqual(['SIGINT 1']);
});

test('disarmed before the grace period ends, it sends nothing', async () => {
  const child = runner(0, 1_000);
  const output = await started(child);
  const watchdog = stopWatchdog(child, TIMES);
  watchdog.arm();
  watchdog.disarm();
  expect(await ended(child)).toMatchObject({ code: 0, signal: null });
  expect(output()).not.toContain('SIGINT');
});
