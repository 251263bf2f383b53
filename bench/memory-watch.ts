/**
 * Samples a mock process's memory (after a full GC: --expose-gc) at an interval during a run, and judges
 * "flat": the retained heap at the end is within a bound of what it was after warm-up. RSS is reported too,
 * but not judged on its own: V8 keeps heap pages it grew into for a while after a burst.
 */

import type { MockProcess } from './mock-process.ts';
import type { MemorySample } from './mock-protocol.ts';

export interface MemoryReport {
  readonly samples: readonly MemorySample[];
  /** After warm-up (first sample) and at the end (last sample), bytes. */
  readonly heapStart: number;
  readonly heapEnd: number;
  readonly heapMax: number;
  readonly rssStart: number;
  readonly rssEnd: number;
  readonly rssMax: number;
  /** heapEnd − heapStart. */
  readonly heapGrowth: number;
  readonly flat: boolean;
  readonly boundBytes: number;
}

export interface MemoryWatch {
  stop(): Promise<MemoryReport>;
}

export const MiB = 1024 * 1024;

export async function watchMemory(
  mock: MockProcess,
  intervalMs: number,
  boundBytes: number,
): Promise<MemoryWatch> {
  const samples: MemorySample[] = [await mock.memory()];
  let pending: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    pending = pending.then(async () => {
      try {
        samples.push(await mock.memory());
      } catch {
        // A sample lost under load is a gap in the series, not a failure.
      }
    });
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await pending;
      samples.push(await mock.memory());
      const first = samples[0] as MemorySample;
      const last = samples[samples.length - 1] as MemorySample;
      const heapGrowth = last.heapUsed - first.heapUsed;
      return {
        samples,
        heapStart: first.heapUsed,
        heapEnd: last.heapUsed,
        heapMax: Math.max(...samples.map((s) => s.heapUsed)),
        rssStart: first.rss,
        rssEnd: last.rss,
        rssMax: Math.max(...samples.map((s) => s.rss)),
        heapGrowth,
        flat: heapGrowth < boundBytes,
        boundBytes,
      };
    },
  };
}

export const mib = (bytes: number): string => `${(bytes / MiB).toFixed(1)} MiB`;

export function describeMemory(m: MemoryReport): string {
  return (
    `heap after GC ${mib(m.heapStart)} → ${mib(m.heapEnd)} (max ${mib(m.heapMax)}, growth ${mib(m.heapGrowth)}, bound ${mib(m.boundBytes)}: ${m.flat ? 'flat' : 'GROWING'}); ` +
    `RSS ${mib(m.rssStart)} → ${mib(m.rssEnd)} (max ${mib(m.rssMax)}); ${m.samples.length} samples`
  );
}
