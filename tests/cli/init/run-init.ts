/**
 * Runs `gatecheck init` in-process, as the CLI does, on a file, a URL or a document given as text, and reads
 * back what it wrote: the profile, what it printed, and the `.env`-style file beside it.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { envFilePath, runInit } from '../../../cli/init/command.ts';

type Json = Record<string, unknown>;

export interface Written {
  readonly profile: Json & { todo: string[]; endpoints: Json; identities: Json };
  readonly stdout: string;
  readonly env: string;
}

export interface InitFlags {
  readonly writes?: boolean;
  readonly server?: string;
}

/** Init on `source` (a file or URL). */
export async function init(source: string, flags: InitFlags | boolean = {}): Promise<Written> {
  const { writes = false, server } = typeof flags === 'boolean' ? { writes: flags } : flags;
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-init-'));
  try {
    const out = path.join(dir, 'profile.json');
    let stdout = '';
    const io = {
      out: (t: string) => {
        stdout += t;
      },
      err: (t: string) => {
        stdout += t;
      },
    };
    await runInit({ source, out, force: false, probe: undefined, writes, ...(server ? { server } : {}) }, io);
    return {
      profile: JSON.parse(await readFile(out, 'utf8')),
      stdout,
      env: await readFile(envFilePath(out), 'utf8').catch(() => ''),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Init on a document given as text (`name` sets its extension: .yaml or .json). */
export async function initText(
  text: string,
  flags: InitFlags | boolean = {},
  name = 'doc.yaml',
): Promise<Written> {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-doc-'));
  try {
    const file = path.join(dir, name);
    await writeFile(file, text);
    return await init(file, flags);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
