/**
 * Bare json-server — the version the mock is built on (node_modules/json-server, pinned in package.json) —
 * started exactly as its users start it, `json-server <file>`, in a child process, on a temporary copy of
 * fixtures/db.json (its CLI watches and writes the file it serves; fixtures/ is never written).
 */

import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES_DIR } from '../mock/config.ts';
import { freePort } from './free-port.ts';
import type { Exit } from './mock-process.ts';
import { ROOT } from './mock-process.ts';

const BIN = join(ROOT, 'node_modules', 'json-server', 'lib', 'bin.js');

export interface JsonServerProcess {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<Exit>;
}

export interface JsonServerOptions {
  /**
   * NODE_ENV=production: json-server's static-file middleware (sirv) indexes `public/` once at start instead
   * of looking each request's path up on disk. Default false: as its users run it (`npx json-server db.json`).
   */
  readonly production?: boolean;
  readonly startTimeoutMs?: number;
}

export async function startJsonServer(options: JsonServerOptions = {}): Promise<JsonServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'gatecheck-bench-json-server-'));
  const file = join(dir, 'db.json');
  copyFileSync(join(FIXTURES_DIR, 'db.json'), file);
  // sirv in production mode indexes public/ at start and fails without it; an empty one serves nothing.
  if (options.production) mkdirSync(join(dir, 'public'));
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  if (options.production) env.NODE_ENV = 'production';
  else delete env.NODE_ENV;
  // json-server's CLI takes a port, not 0: ask the system for a free one first (loopback only).
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, '--port', String(port), '--host', '127.0.0.1', file], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    env,
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    stderr = (stderr + text).slice(-16_384);
  });
  let exitedNow = false;
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      exitedNow = true;
      resolve({ code, signal });
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<Exit> => {
    if (!exitedNow) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    const exit = await exited;
    clearTimeout(timer);
    rmSync(dir, { recursive: true, force: true });
    return exit;
  };

  // Ready when GET /users answers 200; polled every 100 ms, bounded.
  const deadline = Date.now() + (options.startTimeoutMs ?? 20_000);
  for (;;) {
    if (exitedNow) {
      await stop();
      throw new Error(`json-server exited before it listened: ${stderr}`);
    }
    try {
      const res = await fetch(`${url}/users`, { signal: AbortSignal.timeout(1_000) });
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`json-server not ready within ${options.startTimeoutMs ?? 20_000} ms: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, pid: child.pid ?? 0, stop };
}
