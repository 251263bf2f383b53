/** Starts bench/ceiling-child.ts (plain node:http, the load generator's ceiling) in a child process. */

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { askCpu } from './cpu-probe.ts';
import { type Exit, ROOT } from './mock-process.ts';
import type { RecordedAnswer } from './recorded-answer.ts';

const CHILD = fileURLToPath(new URL('./ceiling-child.ts', import.meta.url));

export interface CeilingProcess {
  readonly url: string;
  /** Hands the ceiling an answer to replay; resolves with the path that answers it (`/replay/<id>`). */
  replay(id: string, answer: RecordedAnswer, timeoutMs?: number): Promise<string>;
  /** Its CPU time so far, µs (bench/cpu-probe.ts). */
  cpu(): Promise<number>;
  stop(): Promise<Exit>;
}

export async function startCeiling(timeoutMs = 20_000): Promise<CeilingProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let done = false;
  exited.then(() => {
    done = true;
  });
  const stop = async (): Promise<Exit> => {
    if (!done) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    const exit = await exited;
    clearTimeout(timer);
    return exit;
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`ceiling server not ready within ${timeoutMs} ms`)),
      timeoutMs,
    );
    let text = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      text += chunk;
      const line = text.split('\n')[0];
      if (text.includes('\n') && line) {
        clearTimeout(timer);
        resolve(line.trim());
      }
    });
    exited.then(() => {
      clearTimeout(timer);
      reject(new Error('ceiling server exited before it listened'));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  const replay = (id: string, answer: RecordedAnswer, timeoutMs = 10_000): Promise<string> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.off('message', onMessage);
        reject(new Error(`ceiling server did not take the recording of ${id} within ${timeoutMs} ms`));
      }, timeoutMs);
      const onMessage = (message: { type?: string; id?: string }): void => {
        if (message.type !== 'recorded' || message.id !== id) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(`/replay/${encodeURIComponent(id)}`);
      };
      child.on('message', onMessage);
      child.send({ type: 'record', id, answer });
    });
  return { url, replay, cpu: () => askCpu(child), stop };
}
