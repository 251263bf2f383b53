/**
 * A command started as a user's script starts it (`npx … &`), to be stopped as such a script stops it
 * (`kill $!`: one signal to that one process, never to its group), and what is left of it afterwards.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { cleanEnv } from '../report/synthetic.ts';

export interface Started {
  readonly pid: number;
  /** stdout and stderr so far. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output; rejects after `timeoutMs` or when it exits first. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  /** Its exit: the code, or the signal that ended it. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Every process started under it, as `ps` lists them now (pid and command line). */
  descendants(): { pid: number; command: string }[];
}

/**
 * Starts `command` in its own process group (so a test can clean up after it), like a background job; `env` is
 * added to the cleaned environment.
 */
export function start(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Started {
  const child = spawn(command, args, {
    cwd,
    env: cleanEnv(env),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`${command} did not start`);
  const pid = child.pid;
  let text = '';
  const listeners = new Set<() => void>();
  const append = (d: Buffer) => {
    text += d.toString();
    for (const l of listeners) l();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    pid,
    output: () => text,
    exited,
    waitFor: (pattern, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(text);
          if (!match) return;
          done();
          resolve(match);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${text}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        void exited.then(() => {
          if (!listeners.has(check)) return;
          done();
          reject(new Error(`${command} exited before printing ${pattern}:\n${text}`));
        });
        listeners.add(check);
        check();
      }),
    descendants: () => descendantsOf(pid),
  };
}

/** The processes below `pid` (children, their children, …) from `ps`. */
export function descendantsOf(pid: number): { pid: number; command: string }[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), command: m[3] ?? '' }));
  const below = new Set([pid]);
  const out: { pid: number; command: string }[] = [];
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows)
      if (below.has(row.ppid) && !below.has(row.pid)) {
        below.add(row.pid);
        out.push({ pid: row.pid, command: row.command });
        grew = true;
      }
  }
  return out;
}

/** Whether `pid` still runs: it exists (signal 0 checks without sending) and is not a zombie waiting to be reaped. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state …"; Z is a zombie (Linux; elsewhere signal 0 decides).
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Waits up to `timeoutMs` for every pid to be gone; the ones still there. */
export async function stillRunning(pids: readonly number[], timeoutMs: number): Promise<number[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = pids.filter(alive);
    if (left.length === 0 || Date.now() > until) return left;
    await sleep(100);
  }
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Stops whatever is left (the test's own processes only, by pid). */
export function killAll(pids: readonly number[]): void {
  for (const pid of pids)
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
}
