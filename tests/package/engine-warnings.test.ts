/**
 * What npm says about `engines` when the package is installed, read from package-lock.json — which records each
 * package's `engines` as npm checks them — with npm's own range reader (semver), no install, no registry:
 * - at the declared floor (issue #71): no runtime dependency — a package of the lock not marked `dev`, which
 *   `npm install gatecheck` brings — has an `engines.node` that excludes `semver.minVersion(engines.node)`, the
 *   oldest Node package.json admits. npm warns `EBADENGINE` for each such package (@npmcli/arborist
 *   build-ideal-tree.js #checkEngineAndPlatform → npm-install-checks checkEngine: `semver.satisfies(node,
 *   engines.node, { includePrerelease: true })`), and an upgrade that brings one fails here, not on a user's
 *   machine;
 * - on the Node running the tests (issue #31 item 7): each warning a clone's `npm ci` prints — devDependencies
 *   included — is explained in README's "Node versions" section.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import semver from 'semver';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface LockEntry {
  readonly version?: string;
  readonly dev?: boolean;
  /** `string[]` in lock files of very old packages: npm ignores that form. */
  readonly engines?: { node?: string } | string[];
}

const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
};

/** `node_modules/a/node_modules/@b/c` → `@b/c`. */
const nameOf = (where: string): string =>
  where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** The packages of the lock (not the root) whose `engines.node` leaves out `node`, as `name@version (range)`. */
function excluding(node: string, keep: (entry: LockEntry) => boolean): string[] {
  const out: string[] = [];
  for (const [where, entry] of Object.entries(lock.packages)) {
    const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    if (where === '' || range === undefined || !keep(entry)) continue;
    if (semver.satisfies(node, range, { includePrerelease: true })) continue;
    out.push(`${nameOf(where)}@${entry.version} (engines.node ${range})`);
  }
  return out;
}

test('no runtime dependency’s engines.node excludes the oldest Node package.json admits: no EBADENGINE at the floor', () => {
  const floor = semver.minVersion(manifest.engines.node)?.version;
  expect(floor, `package.json engines.node ${manifest.engines.node} has a lowest version`).toBeDefined();
  const runtime = Object.entries(lock.packages).filter(([where, e]) => where !== '' && !e.dev).length;
  test.info().annotations.push({
    type: 'floor',
    description: `engines.node ${manifest.engines.node} → Node ${floor}; ${runtime} runtime packages in package-lock.json`,
  });
  expect(
    excluding(floor as string, (entry) => !entry.dev),
    `runtime dependencies npm would warn about on Node ${floor}: pick versions whose engines admit it, or raise engines.node`,
  ).toEqual([]);
});

test("every dependency whose engines.node excludes this Node is named in README's Node versions section", () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('### Node versions');
  expect(start, 'README has a "### Node versions" section').toBeGreaterThan(0);
  const section = readme.slice(start, readme.indexOf('\n## ', start));
  const warned = excluding(process.versions.node, () => true).map((line) =>
    line.slice(0, line.lastIndexOf('@')),
  );
  expect(
    warned.filter((name) => !section.includes(`\`${name}`)),
    `explain each in README "Node versions" (Node ${process.versions.node})`,
  ).toEqual([]);
});
