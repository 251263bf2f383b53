/**
 * A folder of this process in the system's temporary directory, gone when the process is. `remove()` deletes it
 * at once (a run's teardown, a mock's close); whatever was not removed so is deleted when the process exits —
 * a run whose reporters do not include gatecheck's (`--reporter=line`, a user's own project) never calls the
 * teardown, and a mock a script never closes still leaves nothing behind. One exit listener for every folder.
 */
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempFolder {
  readonly path: string;
  remove(): Promise<void>;
}

const pending = new Set<string>();
let listening = false;

function removeAtExit(): void {
  for (const path of pending) rmSync(path, { recursive: true, force: true });
  pending.clear();
}

/** Makes `<tmpdir>/<prefix>XXXXXX` (mode 0700), removed by `remove()` or when this process exits. */
export async function tempFolder(prefix: string): Promise<TempFolder> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  pending.add(path);
  if (!listening) {
    listening = true;
    process.once('exit', removeAtExit);
  }
  return {
    path,
    remove: async () => {
      pending.delete(path);
      await rm(path, { recursive: true, force: true });
    },
  };
}
