/**
 * The suite's set-up, done only for a run that selected one of its checks (issue #40: a guest in the user's
 * project is invisible until called). The run's services — scheduler, bundled mock, token broker — must live
 * in the runner process for the whole run, and only the runner can hand its environment to the workers it
 * starts; Playwright tells only its workers which tests were selected. So the runner opens a host when it loads
 * the config (a socket in a private folder, nothing else: no profile read, no variable resolved, no request),
 * and the suite's setup project — which Playwright runs only when a project depending on it has a selected
 * test — asks it, from its worker, to set the run up (specs/setup/set-up.ts). A failed set-up is that one test
 * failing with one line, and Playwright then runs none of the checks that depend on it. In gatecheck's own
 * configuration, where every test is the suite's, its global setup sets the run up here instead
 * (specs/setup/global-set-up.ts: setUpInRunner).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropOutputToClosedPipes } from '../../shared/closed-pipe.ts';
import type { ReporterEntry } from '../lib/progress-stream.ts';
import type { Profile } from '../profile/types.ts';
import { askHost, hostAddressIn, hostFolderPrefix, runHostAddress } from '../run/host-socket.ts';
import type { SetUpRequest, SetUpResult } from './set-up.ts';

/** Where the run's set-up stands: not asked for, done, or failed (with its message). */
export type SetUpState =
  | { readonly state: 'none' | 'done' }
  | { readonly state: 'failed'; readonly error: string };

interface Host {
  readonly address: string;
  /** Resolves once the run is set up (once per run, whoever asks); rejects with the set-up's error. */
  setUp(request: SetUpRequest): Promise<void>;
  /** The variables the set-up made, for the suite's workers and the reporter (none before it is done). */
  env(): Readonly<Record<string, string>>;
  /** The profile the set-up resolved (undefined before it is done). */
  profile(): Profile | undefined;
  /** The run's teardown, once; a no-op when nothing was set up. */
  tearDown(): Promise<void>;
  state(): SetUpState;
}

/** One host per runner process, however many module instances load this file (config, reporter). */
const KEY = Symbol.for('gatecheck.runHost');
const registry = globalThis as Record<symbol, Host | undefined>;

/** Whether this process is one of Playwright's workers (they load the config too). */
function inWorker(env: NodeJS.ProcessEnv): boolean {
  return env.TEST_WORKER_INDEX !== undefined;
}

/**
 * Opens the runner's host, once per process; in a worker it does nothing. Synchronous, as a config is: the
 * socket's path is known at once, and the workers, started later, find it by their parent's process id.
 */
export function openRunHost(env: NodeJS.ProcessEnv = process.env): void {
  if (inWorker(env) || registry[KEY]) return;
  // `npx playwright test | head -1`: the suite's lines to a reader that has gone are dropped, never an EPIPE
  // crash of the user's run that leaves the run's folders behind (issue #67).
  dropOutputToClosedPipes();
  // A folder only this user can enter (mkdtemp: 0700), so no one else can ask for the run's secrets.
  // Named after this process, every worker's parent: the workers find it so (specs/run/host-socket.ts).
  const folder = mkdtempSync(join(tmpdir(), hostFolderPrefix(process.pid)));
  const address = hostAddressIn(folder);
  let setUp: Promise<SetUpResult> | undefined;
  let setUpEnv: Readonly<Record<string, string>> = {};
  let setUpProfile: Profile | undefined;
  let tornDown = false;
  let state: SetUpState = { state: 'none' };
  const host: Host = {
    address,
    setUp: async (request) => {
      setUp ??= import('./set-up.ts')
        .then(({ setUpRun }) => setUpRun(request))
        .then(
          (result) => {
            state = { state: 'done' };
            setUpEnv = result.env;
            setUpProfile = result.profile;
            return result;
          },
          (error: Error) => {
            state = { state: 'failed', error: error.message };
            throw error;
          },
        );
      await setUp;
    },
    state: () => state,
    env: () => setUpEnv,
    profile: () => setUpProfile,
    tearDown: async () => {
      if (tornDown || setUp === undefined) return;
      tornDown = true;
      const result = await setUp.catch(() => undefined);
      await result?.close();
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'GET' && req.url === '/state') return answer(200, host.state());
      if (req.method === 'GET' && req.url === '/env') return answer(200, host.env());
      if (req.method === 'GET' && req.url === '/profile') {
        const profile = host.profile();
        return profile === undefined ? answer(404, { error: 'the run is not set up' }) : answer(200, profile);
      }
      if (req.method !== 'POST' || req.url !== '/setup') return answer(404, { error: 'unknown request' });
      let request: SetUpRequest;
      try {
        request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SetUpRequest;
      } catch {
        return answer(400, { error: 'the set-up request is not JSON' });
      }
      host.setUp(request).then(
        () => answer(200, { ok: true }),
        (error: Error) => answer(500, { error: error.message, name: error.name }),
      );
    });
  });
  server.listen(address);
  // The host never keeps the runner alive; the folder goes with the process.
  server.unref();
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  registry[KEY] = host;
}

/** In the runner (the reporter): the variables the run's set-up made, none before it is done. */
export function setUpEnv(): Readonly<Record<string, string>> {
  return registry[KEY]?.env() ?? {};
}

/** In the runner (the reporter): where the run's set-up stands, `none` without a host. */
export function setUpStateHere(): SetUpState {
  return registry[KEY]?.state() ?? { state: 'none' };
}

/** The run's teardown, from the reporter at the end of the run (before it reads what the run left). */
export async function tearDownRun(): Promise<void> {
  await registry[KEY]?.tearDown();
}

/** What the set-up needs of the run's configuration: its workers, and its reporters' names and output files. */
export function setUpRequestOf(config: {
  readonly workers: number;
  readonly reporter: readonly (readonly [string, unknown?])[];
}): SetUpRequest {
  const reporters: ReporterEntry[] = config.reporter.map(([name, options]) => {
    const { outputFile, fileName } = (options ?? {}) as { outputFile?: unknown; fileName?: unknown };
    return [name, { outputFile, fileName }];
  });
  return { workers: config.workers, reporters };
}

/** A set-up's error as one line: where it was asked from says nothing its message does not. */
function oneLine(message: string): Error {
  const error = new Error(message);
  error.stack = `Error: ${message}`;
  return error;
}

/**
 * In the runner (gatecheck's own configuration's global setup, specs/setup/global-set-up.ts): sets the run up
 * through this process's host, as a worker's request would; throws the set-up's error as one line.
 */
export async function setUpInRunner(request: SetUpRequest): Promise<void> {
  const host = registry[KEY];
  if (host === undefined) throw oneLine('gatecheck: no run host in this runner (the config opened none)');
  await host.setUp(request).catch((error: Error) => {
    throw oneLine(error.message);
  });
}

/** From a worker (the setup test): asks the runner's host to set the run up; throws the set-up's error. */
export async function askForSetUp(
  request: SetUpRequest,
  address: string | undefined = runHostAddress(),
): Promise<void> {
  if (!address) {
    throw new Error(
      `gatecheck: no run host in this run (the runner opened none): the suite's projects come from gatecheckProjects() (docs/package.md)`,
    );
  }
  const { status, answer } = await askHost(address, 'POST', '/setup', request);
  if (status === 200) return;
  throw oneLine(typeof answer.error === 'string' ? answer.error : `the run host answered ${status}`);
}

/**
 * From a worker: where the run's set-up stands. `none` too in a run without a host (a config of its own that
 * sets its targets up itself, as the mutation run does).
 */
export async function setUpState(address: string | undefined = runHostAddress()): Promise<SetUpState> {
  if (!address) return { state: 'none' };
  const { answer } = await askHost(address, 'GET', '/state');
  return answer as SetUpState;
}
