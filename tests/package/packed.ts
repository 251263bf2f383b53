/**
 * The packed package, once per state of its sources: `npm pack` (whose prepack empties and rebuilds dist/)
 * run under a lock, so test files packing at the same time never build over each other, and its tarball
 * kept in node_modules/.cache/gatecheck-pack/<digest of the packed sources>/, so the next test file (and the
 * next run, until a source changes) installs the same tarball without packing again.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { withLock } from './cache-lock.ts';
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

/** The tarball of the sources as they are now: packed once, then taken from the cache. */
export async function packedTarball(): Promise<string> {
  return withLock(LOCK, async () => {
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
