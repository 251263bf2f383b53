/**
 * Below the oldest Node the package's `engines` admits (issue #40), it refuses in one line: a CommonJS
 * `playwright.config.ts` importing `gatecheck/playwright` on the last minor before the floor (its Node binary
 * from the npm registry, tests/package/node-releases.ts) names the Node it needs instead of failing with
 * ERR_REQUIRE_ESM, and the CLI's bin reads `engines` itself. On the floor and the LTS releases the package runs
 * whole: tests/package/node-versions.test.ts.
 *
 * Bounded: the tarball packed once (tests/package/packed.ts), the Node binary cached. Skipped, saying so, only
 * when the npm registry cannot be reached.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import semver from 'semver';
import { createConsumer, ROOT, registryReachable, run } from './consumer.ts';
import { FLOOR, nodeBinary } from './node-releases.ts';
import { packedTarball } from './packed.ts';
import { SPREAD_CONFIG } from './spread-config.ts';

test.describe.configure({ timeout: 8 * 60_000 });

/** The last minor before the floor: 20.19.0 → 20.18.0. */
const BELOW = (() => {
  const floor = semver.parse(FLOOR);
  return floor && floor.minor > 0 ? `${floor.major}.${floor.minor - 1}.0` : undefined;
})();

test(`a CommonJS config on Node ${BELOW ?? '(none below)'}: one line naming the Node it needs, not ERR_REQUIRE_ESM`, async () => {
  test.skip(BELOW === undefined, 'the floor is a major version: no minor below it');
  test.skip(!(await registryReachable()), 'npm registry unreachable (npm ping failed)');
  const node = await nodeBinary(BELOW as string);
  const consumer = await createConsumer(await packedTarball(), []);
  try {
    await consumer.write('playwright.config.ts', SPREAD_CONFIG);
    const pkg = JSON.parse(await consumer.read('package.json'));
    await consumer.write('package.json', JSON.stringify({ ...pkg, type: 'commonjs' }, null, 2));
    const result = await consumer.run(
      node,
      ['node_modules/@playwright/test/cli.js', 'test', '--list'],
      120_000,
    );
    const all = result.stdout + result.stderr;
    expect(result.code, all).not.toBe(0);
    expect(all).toContain(
      `gatecheck/playwright needs Node 20.19 or later (package.json "engines"), where require() loads ES modules; this is Node ${BELOW}.`,
    );
    expect(all).not.toContain('ERR_REQUIRE_ESM');
  } finally {
    await consumer.dispose();
  }
});

test('below the floor the CLI refuses in one line, exit 2 (the bin reads engines itself)', async () => {
  const consumerless = await writeManifestCopy('>=99.0');
  const result = await run(
    process.execPath,
    [path.join(consumerless, 'bin/gatecheck.js'), '--version'],
    ROOT,
    30_000,
  );
  expect(result.code).toBe(2);
  expect(result.stderr).toBe(
    `gatecheck: needs Node 99.0 or later (package.json "engines": ">=99.0"); this is Node ${process.versions.node}\n`,
  );
  expect(result.stdout).toBe('');
});

/** bin/ beside a package.json whose engines says `range`, in a temporary folder (gone with the worker). */
async function writeManifestCopy(range: string): Promise<string> {
  const { copyFile } = await import('node:fs/promises');
  const { tempFolder } = await import('../../shared/temp-folder.ts');
  const dir = (await tempFolder('gatecheck-engines-')).path;
  await mkdir(path.join(dir, 'bin'));
  for (const file of ['gatecheck.js', 'entry.js', 'node-version.js'])
    await copyFile(path.join(ROOT, 'bin', file), path.join(dir, 'bin', file));
  await writeFile(
    path.join(dir, 'package.json'),
    JSON.stringify({ type: 'module', engines: { node: range } }),
  );
  return dir;
}
