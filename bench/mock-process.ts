/**
 * Starts the mock in a child process (bench/mock-child.ts) and talks to it: URL, memory samples, stop, kill.
 * Benchmarks and soak runs use it so the mock has an event loop (and, on a 2-core machine, a core) of its
 * own, apart from the load generator; the reliability tests use it to measure the mock's RSS and to SIGKILL
 * it in the middle of writes.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MockConfigFile } from '../mock/config.ts';
import { askCpu } from './cpu-probe.ts';
import type { ChildMessage, MemorySample, ParentMessage } from './mock-protocol.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** bench/mock-child.ts of a checkout: this one's, or another's (bench/mock-ab.ts runs two side by side). */
const childOf = (root: string): string => join(root, 'bench', 'mock-child.ts');

/** The configuration keys that survive JSON (no clock, engine or authenticator across a process boundary). */
export type MockProcessConfig = Omit<MockConfigFile, '$schema'>;

export interface MockProcessOptions {
  readonly config?: MockProcessConfig;
  /**
   * The checkout whose mock runs (its bench/mock-child.ts, with it as the working directory): this one by
   * default. Another checkout must have its dependencies installed (a node_modules).
   */
  readonly root?: string;
  /** Write a V8 CPU profile of the mock into this folder when it stops (`node --cpu-prof`). */
  readonly cpuProfDir?: string;
  /** `--expose-gc`, so memory samples follow a full collection (retained memory, not garbage). */
  readonly exposeGc?: boolean;
  readonly startTimeoutMs?: number;
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface MockProcess {
  readonly url: string;
  readonly pid: number;
  /** Resolves when the process has exited, for any reason. */
  readonly exited: Promise<Exit>;
  /** Whether the process has exited. */
  hasExited(): boolean;
  memory(timeoutMs?: number): Promise<MemorySample>;
  /** Its CPU time so far, µs (bench/cpu-probe.ts). */
  cpu(): Promise<number>;
  /** Asks the mock to close and exit (its CPU profile is written then); SIGKILL after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<Exit>;
  kill(signal?: NodeJS.Signals): Promise<Exit>;
  /** What the mock wrote on stderr (the last 64 KiB): e.g. its one line per unexpected error. */
  stderr(): string;
}

const STDERR_KEPT = 64 * 1024;

export async function startMockProcess(options: MockProcessOptions = {}): Promise<MockProcess> {
  const nodeFlags = [
    ...(options.exposeGc ? ['--expose-gc'] : []),
    ...(options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : []),
  ];
  const root = options.root ?? ROOT;
  const child = spawn(
    process.execPath,
    [...nodeFlags, '--import', 'tsx', childOf(root), JSON.stringify(options.config ?? {})],
    { cwd: root, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], env: { ...process.env, FORCE_COLOR: '0' } },
  );
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    stderr = (stderr + text).slice(-STDERR_KEPT);
  });
  let exitedNow = false;
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      exitedNow = true;
      resolve({ code, signal });
    });
  });

  const ready = await new Promise<{ url: string; pid: number }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mock process not ready within ${options.startTimeoutMs ?? 20_000} ms: ${stderr}`));
    }, options.startTimeoutMs ?? 20_000);
    const onMessage = (message: ChildMessage): void => {
      if (message.type !== 'ready') return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`mock process exited before it listened (code ${code}, signal ${signal}): ${stderr}`));
    });
  });

  let nextId = 0;
  return {
    url: ready.url,
    pid: ready.pid,
    exited,
    hasExited: () => exitedNow,
    memory(timeoutMs = 10_000) {
      const id = nextId++;
      return new Promise<MemorySample>((resolve, reject) => {
        const timer = setTimeout(() => {
          child.off('message', onMessage);
          reject(new Error(`no memory sample from the mock within ${timeoutMs} ms`));
        }, timeoutMs);
        const onMessage = (message: ChildMessage): void => {
          if (message.type !== 'memory' || message.id !== id) return;
          clearTimeout(timer);
          child.off('message', onMessage);
          resolve(message.memory);
        };
        child.on('message', onMessage);
        post(child, { type: 'memory', id });
      });
    },
    async stop(timeoutMs = 10_000) {
      if (exitedNow) return exited;
      post(child, { type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    },
    async kill(signal = 'SIGKILL') {
      if (!exitedNow) child.kill(signal);
      return exited;
    },
    cpu: () => askCpu(child),
    stderr: () => stderr,
  };
}

function post(child: ChildProcess, message: ParentMessage): void {
  if (child.connected) child.send(message);
}
