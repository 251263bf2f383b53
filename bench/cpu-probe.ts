/**
 * CPU time of a server process, asked over its IPC channel: `{ type: 'cpu', id }` → `{ type: 'cpu', id,
 * micros }` (user + system, process.cpuUsage). A server's CPU time per answered request is what it costs to
 * answer, whatever else the shared machine is doing; requests per second also measure who got a core when.
 */

import type { ChildProcess } from 'node:child_process';

interface CpuReply {
  readonly type: 'cpu';
  readonly id: number;
  readonly micros: number;
}

/** In the server's process: answer CPU probes from the parent. */
export function answerCpuProbes(): void {
  process.on('message', (message: { type?: string; id?: number }) => {
    if (message.type !== 'cpu' || typeof message.id !== 'number') return;
    const { user, system } = process.cpuUsage();
    process.send?.({ type: 'cpu', id: message.id, micros: user + system } satisfies CpuReply);
  });
}

let nextId = 0;

/** In the parent: the child's CPU time so far, in microseconds. */
export function askCpu(child: ChildProcess, timeoutMs = 10_000): Promise<number> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      reject(new Error(`no CPU time from process ${child.pid} within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (message: Partial<CpuReply>): void => {
      if (message.type !== 'cpu' || message.id !== id) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(message.micros as number);
    };
    child.on('message', onMessage);
    child.send({ type: 'cpu', id });
  });
}
