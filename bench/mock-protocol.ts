/** The IPC messages between bench/mock-process.ts (parent) and bench/mock-child.ts (the mock's process). */

export interface MemorySample {
  /** Resident set size of the mock's process, bytes. */
  readonly rss: number;
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly external: number;
  /** Epoch ms when it was taken. */
  readonly at: number;
}

export type ParentMessage = { readonly type: 'memory'; readonly id: number } | { readonly type: 'stop' };

export type ChildMessage =
  | { readonly type: 'ready'; readonly url: string; readonly pid: number }
  | { readonly type: 'memory'; readonly id: number; readonly memory: MemorySample };
