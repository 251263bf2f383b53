/**
 * A real Redis for the tests and the store benchmark: Debian's redis-server on a free loopback port with a
 * temporary directory, no persistence, always stopped. Where the binary is missing, `REDIS_MISSING` says so
 * and the tests skip (CI installs it: .ci/run).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

const BINARY = '/usr/bin/redis-server';

/** Undefined when redis-server is there; else the reason the Redis tests skip. */
export const REDIS_MISSING: string | undefined = existsSync(BINARY)
  ? undefined
  : `${BINARY} is not installed (apt-get install redis-server): the Redis store tests are skipped`;

export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** Kills the server (SIGKILL: as if it crashed); `start()` brings it back on the same port, empty. */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Pauses (SIGSTOP) and resumes (SIGCONT) the server: connected, but answering nothing — a slow Redis. */
  pause(): void;
  resume(): void;
  /** Stops it for good and removes its directory. */
  stop(): Promise<void>;
}

export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gatecheck-redis-'));
  let child: ChildProcess | undefined;

  const start = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const proc = spawn(
        BINARY,
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = proc;
      let out = '';
      const timer = setTimeout(() => {
        proc.kill('SIGKILL');
        reject(new Error(`redis-server did not start within 10 s: ${out.slice(-300)}`));
      }, 10_000);
      proc.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}): ${out.slice(-300)}`));
      });
    });

  const kill = (): Promise<void> =>
    new Promise((resolve) => {
      const proc = child;
      if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill('SIGKILL');
    });

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    start,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    async stop() {
      child?.kill('SIGCONT');
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
