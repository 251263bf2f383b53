/**
 * A worker's line to the runner's host (specs/setup/run-host.ts): where it listens, one request and its JSON
 * answer, and the run's environment the set-up made (issue #40: handed to the suite's own workers on asking,
 * never left in the runner's environment, where every worker of the user's own projects would inherit it).
 *
 * The host's address is not in the environment either: it is found from the run itself. The runner opens it
 * in a folder of its own named after its process id (mkdtemp: only this user may enter it), and a worker is
 * a child of the runner, so it looks for its parent's folder.
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Profile } from '../profile/types.ts';

/** The start of the host's folder's name (in the system's temporary directory) for the runner `runnerPid`. */
export function hostFolderPrefix(runnerPid: number): string {
  return `gatecheck-run-${runnerPid}-`;
}

/** The host's address in its folder: a socket path (a named pipe on Windows). */
export function hostAddressIn(folder: string): string {
  return process.platform === 'win32'
    ? `\\\\?\\pipe\\${folder.replace(/[\\/:]/g, '-')}`
    : join(folder, 'host.sock');
}

/** Whether `folder` is a host's folder this user made: theirs, closed to others, with the host in it. */
function isOwnHostFolder(folder: string): boolean {
  try {
    const stat = statSync(folder);
    if (!stat.isDirectory() || (stat.mode & 0o077) !== 0) return false;
    if (process.getuid !== undefined && stat.uid !== process.getuid()) return false;
    return process.platform === 'win32' || existsSync(hostAddressIn(folder));
  } catch {
    return false;
  }
}

/**
 * From a worker: the address of its runner's host (its parent process's), or undefined where the runner
 * opened none (a config that sets its targets up itself, as the mutation run does).
 */
export function runHostAddress(runnerPid: number = process.ppid): string | undefined {
  const prefix = hostFolderPrefix(runnerPid);
  let names: string[];
  try {
    names = readdirSync(tmpdir()).filter((name) => name.startsWith(prefix));
  } catch {
    return undefined;
  }
  const folders = names.map((name) => join(tmpdir(), name)).filter(isOwnHostFolder);
  // A folder a crashed runner of the same process id left behind is older than this run's.
  const newest = folders.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  return newest === undefined ? undefined : hostAddressIn(newest);
}

/**
 * Removes the host folders of the runner `runnerPid`, which must have ended: its exit handler removes its
 * folder, but a runner ended by a signal it does not handle (SIGTERM from a process manager, SIGKILL) leaves
 * it behind, socket file and all. Only this user's host folders are touched.
 */
export function removeHostFoldersOf(runnerPid: number): void {
  const prefix = hostFolderPrefix(runnerPid);
  let names: string[];
  try {
    names = readdirSync(tmpdir()).filter((name) => name.startsWith(prefix));
  } catch {
    return;
  }
  for (const folder of names.map((name) => join(tmpdir(), name)).filter(isOwnHostFolder))
    rmSync(folder, { recursive: true, force: true });
}

/** One request to the runner's host: its status and JSON answer. */
export function askHost(
  address: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; answer: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { socketPath: address, path, method, headers: { 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          let answer: Record<string, unknown> = {};
          try {
            answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
          } catch {
            // An empty answer: the status says it.
          }
          resolve({ status: res.statusCode ?? 0, answer });
        });
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/**
 * Whether a request to the host failed because nothing listens at its address: the folder of a runner killed
 * before it could remove it (SIGKILL leaves the socket file behind), whose process id this worker's runner
 * now has — and this runner opened no host of its own. A refused connection to a socket file (ENOENT once it
 * is gone) is that answer at once; a host that is there accepts, whatever its load.
 */
function nobodyListens(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ECONNREFUSED' || code === 'ENOENT';
}

/** askHost, or undefined where nobody listens at the address (a run without a host, as far as it goes). */
async function askLiveHost(
  address: string,
  path: string,
): Promise<{ status: number; answer: Record<string, unknown> } | undefined> {
  try {
    return await askHost(address, 'GET', path);
  } catch (error) {
    if (nobodyListens(error)) return undefined;
    throw error;
  }
}

/**
 * The variables the run's set-up made (BASE_URL, GATECHECK_PROFILE, the scheduler's and the token broker's
 * addresses, …), from the runner's host; none in a run without a host (a config that sets its targets up
 * itself, as the mutation run does, or a dead runner's host found under this runner's process id) or before
 * the set-up ran.
 */
export async function setUpEnvFromHost(
  address: string | undefined = runHostAddress(),
): Promise<Record<string, string>> {
  const asked = address ? await askLiveHost(address, '/env') : undefined;
  if (asked?.status !== 200) return {};
  return Object.fromEntries(
    Object.entries(asked.answer).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/**
 * The profile the run's set-up resolved and validated, from the runner's host: a worker of the run's target
 * takes it as it is rather than reading, resolving and checking the file again. Undefined without a host, or
 * before the set-up is done.
 */
export async function setUpProfileFromHost(
  address: string | undefined = runHostAddress(),
): Promise<Profile | undefined> {
  const asked = address ? await askLiveHost(address, '/profile') : undefined;
  return asked?.status === 200 ? (asked.answer as unknown as Profile) : undefined;
}
