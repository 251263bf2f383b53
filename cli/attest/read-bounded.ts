/**
 * A file read whole only when it is within a limit (limits.ts): the size is asked first, and no more than
 * that size plus one byte is ever read; a file that grows meanwhile (or a FIFO, of size 0) is refused.
 */
import { open } from 'node:fs/promises';

export type Bounded =
  | { readonly ok: true; readonly bytes: Buffer }
  | { readonly ok: false; readonly size: number };

/** Throws the filesystem's error (ENOENT, EISDIR…) unchanged. */
export async function readBounded(file: string, limit: number): Promise<Bounded> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size > limit) return { ok: false, size };
    const buffer = Buffer.alloc(size + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    // More than stat said: the file is growing (or is not a regular file); what it will hold is unknown.
    if (length > size) return { ok: false, size: Math.max(length, limit + 1) };
    return { ok: true, bytes: buffer.subarray(0, length) };
  } finally {
    await handle.close();
  }
}
