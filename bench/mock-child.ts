/**
 * The mock in a process of its own, for measurements that must not share an event loop with the load
 * generator (bench/mock-process.ts starts it). Started with the configuration as JSON in argv[2]; answers
 * its parent over IPC:
 *   → { type: 'ready', url, pid }            once listening
 *   ← { type: 'memory', id }  → { type: 'memory', id, memory }   (after a full GC when --expose-gc is on)
 *   ← { type: 'stop' }        → closes the mock and exits 0 (so --cpu-prof writes its profile)
 *   ← { type: 'cpu', id }     → { type: 'cpu', id, micros }   (bench/cpu-probe.ts)
 * The parent going away stops it too: a benchmark never leaves a mock listening.
 */

import { startMock } from '../mock/server.ts';
import { answerCpuProbes } from './cpu-probe.ts';
import type { ChildMessage, MemorySample, ParentMessage } from './mock-protocol.ts';

const send = (message: ChildMessage): void => {
  process.send?.(message);
};

function sample(): MemorySample {
  // `gc` exists only under --expose-gc; a sample after a full collection shows retained memory, not garbage.
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
  return { rss, heapUsed, heapTotal, external, at: Date.now() };
}

const config = JSON.parse(process.argv[2] ?? '{}') as Parameters<typeof startMock>[0];
const mock = await startMock({ ...config, port: 0, host: '127.0.0.1' });

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  // Bounded: a close that hangs must not keep the process alive.
  setTimeout(() => process.exit(1), 5_000).unref();
  mock.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};

process.on('message', (message: ParentMessage) => {
  if (message.type === 'memory') send({ type: 'memory', id: message.id, memory: sample() });
  else if (message.type === 'stop') stop();
});
process.on('disconnect', stop);
answerCpuProbes();
send({ type: 'ready', url: mock.url, pid: process.pid });
