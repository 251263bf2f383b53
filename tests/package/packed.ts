/**
 * The packed package, once per state of its sources: `npm pack` (whose prepack empties and rebuilds dist/)
 * run under a lock, so test files packing at the same time never build over each other, and its tarball
 * kept in node_modules/.cache/gatecheck-pack/<digest of the packed sources>/, so the next test file (and the
 * next run, until a source changes) installs the same tarball without packing again.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { packRepository, ROOT } from './consumer.ts';

/** What `npm pack` reads: the package's files and what builds them (package.json "files", scripts/build-package.ts). */
const PACKED_INPUTS = [
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'playwright.config.ts',
  'scripts/build-package.ts',
  'bin',
  'cli',
  'docs',
  'fixtures',
  'mock',
  'shared',
  'specs',
];

const CACHE = path.join(ROOT, 'node_modules/.cache/gatecheck-pack');
const LOCK = path.join(CACHE, '.lock');
/** A lock older than this was left by a killed run. */
const STALE_LOCK_MS = 5 * 60_000;

/** SHA-256 over the packed inputs' paths and bytes, in a fixed order. */
export function sourcesDigest(): string {
  const hash = createHash('sha256');
  const visit = (relative: string): void => {
    const full = path.join(ROOT, relative);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full).sort()) visit(path.join(relative, name));
      return;
    }
    hash.update(`${relative}\0`);
    hash.update(readFileSync(full));
  };
  for (const input of PACKED_INPUTS) visit(input);
  return hash.digest('hex').slice(0, 16);
}

async function tarballIn(dir: string): Promise<string | undefined> {
  if (!existsSync(dir)) return undefined;
  const name = (await readdir(dir)).find((f) => f.endsWith('.tgz'));
  return name && path.join(dir, name);
}

async function withLock<T>(body: () => Promise<T>): Promise<T> {
  await mkdir(CACHE, { recursive: true });
  for (;;) {
    try {
      await mkdir(LOCK);
      break;
    } catch {
      const since = await stat(LOCK).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (since > STALE_LOCK_MS) await rm(LOCK, { recursive: true, force: true });
      else await sleep(250);
    }
  }
  try {
    return await body();
  } finally {
    await rm(LOCK, { recursive: true, force: true });
  }
}

/** The tarball of the sources as they are now: packed once, then taken from the cache. */
export async function packedTarball(): Promise<string> {
  return withLock(async () => {
    const dir = path.join(CACHE, sourcesDigest());
    const cached = await tarballIn(dir);
    if (cached) return cached;
    // Older digests are sources that changed since: one tarball is kept.
    for (const old of existsSync(CACHE) ? await readdir(CACHE) : [])
      if (old !== '.lock') await rm(path.join(CACHE, old), { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    return packRepository(dir);
  });
}
