/**
 * Every `EBADENGINE` warning a newcomer's `npm ci` (or `npm install` of the package) prints on the tested Node
 * version is explained in README's "Node versions" section (issue #31 item 7): a dependency added later whose
 * `engines.node` excludes this Node must be named there too. Read from package-lock.json, which records each
 * package's `engines` as npm checks them, with npm's own range reader (semver) — no install, no registry.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import semver from 'semver';

const ROOT = path.resolve(import.meta.dirname, '../..');

test("every dependency whose engines.node excludes this Node is named in README's Node versions section", () => {
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { engines?: { node?: string } | string[] }>;
  };
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('### Node versions');
  expect(start, 'README has a "### Node versions" section').toBeGreaterThan(0);
  const section = readme.slice(start, readme.indexOf('\n## ', start));
  const warned: string[] = [];
  for (const [where, entry] of Object.entries(lock.packages)) {
    const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    if (where === '' || range === undefined) continue;
    // npm warns when the running Node is outside the range (npm-install-checks: semver.satisfies, prereleases in).
    if (semver.satisfies(process.versions.node, range, { includePrerelease: true })) continue;
    warned.push(where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length));
  }
  expect(
    warned.filter((name) => !section.includes(`\`${name}`)),
    `explain each in README "Node versions" (Node ${process.versions.node})`,
  ).toEqual([]);
});
