/**
 * A lock shared by the test workers of one machine: a directory made with mkdir (atomic: one maker wins),
 * removed when the holder is done, taken over when a killed run left it behind. Guards the caches under
 * node_modules/.cache/ that several test files fill (the packed tarball, installed consumer projects).
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A lock older than this was left by a killed run. */
const STALE_LOCK_MS = 5 * 60_000;

/** Runs `body` holding the lock directory `lock` (its parent is made if missing). */
export async function withLock<T>(lock: string, body: () => Promise<T>): Promise<T> {
  await mkdir(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      const since = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (since > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true });
      else await sleep(250);
    }
  }
  try {
    return await body();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}
