/**
 * A consumer project outside the repository: a temporary directory into which the packed tarball is
 * installed from a copy, so nothing it runs can reach this repository's files. Commands run through npm and
 * npx as a user would, with the environment cleaned of every gatecheck and Playwright variable.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import {
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cleanEnv, ROOT, type RunResult } from '../report/synthetic.ts';
import { withLock } from './cache-lock.ts';

export { ROOT };

/** Runs a command (no shell), collecting its output; killed (its process group) after `timeoutMs`. */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  timeoutMs: number,
  env: NodeJS.ProcessEnv = cleanEnv(),
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => killGroup(child.pid), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}

/** Whether the npm registry answers (`npm ping`): the only condition under which the packing test skips. */
export async function registryReachable(): Promise<boolean> {
  const ping = await run('npm', ['ping'], tmpdir(), 30_000);
  return ping.code === 0;
}

/** `npm pack` of this repository (its prepack builds dist/) into `dir`; the tarball's path. */
export async function packRepository(dir: string): Promise<string> {
  const packed = await run('npm', ['pack', '--pack-destination', dir], ROOT, 180_000);
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
  const name = packed.stdout.trim().split('\n').at(-1) ?? '';
  return path.join(dir, name);
}

/** A consumer's tsconfig.json for its own files (`include`): strict, Node's module resolution, no output. */
export function consumerTsconfig(include: readonly string[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    compilerOptions: {
      ...extra,
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noEmit: true,
      types: ['node'],
    },
    include,
  });
}

export interface Consumer {
  readonly dir: string;
  /** `env`: added to the cleaned environment. */
  run(
    command: string,
    args: readonly string[],
    timeoutMs: number,
    env?: Record<string, string>,
  ): Promise<RunResult>;
  write(file: string, text: string): Promise<void>;
  read(file: string): Promise<string>;
  /** Starts `npx gatecheck-mock --port 0`; resolves once it printed its URL. */
  startMock(): Promise<{ url: string; stop(): Promise<void> }>;
  dispose(): Promise<void>;
}

/**
 * A fresh ES-module project holding a copy of the tarball, installed with `extra` registry packages: a copy
 * (`cp -a`) of the project installed once per tarball and `extra` (installedTemplate), so test files that
 * install the same thing pay for one `npm install`.
 */
export async function createConsumer(tarball: string, extra: readonly string[]): Promise<Consumer> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), 'gatecheck-consumer-')));
  await copyOfInstalled(tarball, extra, dir);
  return {
    dir,
    run: (command, args, timeoutMs, env = {}) => run(command, args, dir, timeoutMs, cleanEnv(env)),
    write: (file, text) => writeFile(path.join(dir, file), text),
    read: (file) => readFile(path.join(dir, file), 'utf8'),
    startMock: () => startConsumerMock(dir),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Installed projects, one per tarball and `extra`, outside the repository; those of an older tarball are removed. */
const TEMPLATES = path.join(tmpdir(), 'gatecheck-consumer-templates');
const TEMPLATE_LIFETIME_MS = 24 * 3600_000;

/** A digest of a file's bytes, or of a list of words. */
const digestOf = (data: Buffer | string, length: number): string =>
  createHash('sha256').update(data).digest('hex').slice(0, length);

/**
 * Copies into `into` the project a consumer starts as: an ES-module package.json, a copy of the tarball, and
 * `npm install` of the tarball and `extra` (npm's cache first). Installed once per tarball's bytes and `extra`
 * into a folder renamed into place only once complete, then copied (`cp -a`); both under the template's lock,
 * so no copy reads a template being replaced.
 */
async function copyOfInstalled(tarball: string, extra: readonly string[], into: string): Promise<void> {
  const tarballKey = digestOf(await readFile(tarball), 16);
  const dir = path.join(TEMPLATES, `${tarballKey}-${digestOf(extra.join('\n'), 8)}`);
  await withLock(`${dir}.lock`, async () => {
    await installedInto(dir, tarballKey, tarball, extra);
    const copied = await run('cp', ['-a', `${dir}/.`, into], tmpdir(), 120_000);
    if (copied.code !== 0) throw new Error(`copying the installed project failed:\n${copied.stderr}`);
  });
}

/** The template `dir` installed, unless it is there already. */
async function installedInto(
  dir: string,
  tarballKey: string,
  tarball: string,
  extra: readonly string[],
): Promise<void> {
  // A day old at most: a temporary-files cleaner may have taken parts of an older one.
  if (existsSync(dir) && Date.now() - statSync(dir).mtimeMs < TEMPLATE_LIFETIME_MS) return;
  await rm(dir, { recursive: true, force: true });
  for (const old of await readdir(TEMPLATES))
    if (!old.startsWith(tarballKey)) await rm(path.join(TEMPLATES, old), { recursive: true, force: true });
  const partial = `${dir}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  await copyFile(tarball, path.join(partial, path.basename(tarball)));
  await writeFile(
    path.join(partial, 'package.json'),
    `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  const installed = await run(
    'npm',
    [
      'install',
      '--save-exact',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      `./${path.basename(tarball)}`,
      ...extra,
    ],
    partial,
    300_000,
  );
  if (installed.code !== 0) throw new Error(`npm install failed:\n${installed.stderr}`);
  await rename(partial, dir);
}

function startConsumerMock(dir: string): Promise<{ url: string; stop(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['gatecheck-mock', '--port', '0'], {
      cwd: dir,
      env: cleanEnv(),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((done) =>
      child.on('close', (code) => {
        clearTimeout(timer);
        reject(new Error(`gatecheck-mock exited (${code}) before printing its URL:\n${seen}`));
        done();
      }),
    );
    const stop = async () => {
      killGroup(child.pid);
      await exited;
    };
    let seen = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`gatecheck-mock printed no URL within 60 s:\n${seen}`));
    }, 60_000);
    child.stderr.on('data', (d: Buffer) => {
      seen += d.toString();
    });
    child.stdout.on('data', (d: Buffer) => {
      seen += d.toString();
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, stop });
      }
    });
    child.on('error', reject);
  });
}
