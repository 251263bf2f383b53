/**
 * The package loads on the oldest Node its `engines` field admits (issue #40), from a CommonJS project (npm's
 * default: Playwright compiles its playwright.config.ts to CommonJS, `import` becoming `require`) and from an
 * ES module one. That Node comes from the npm registry: its binary ships as `node-<platform>-<arch>` (what
 * the `node` package's install script would fetch; npm 11 runs no install scripts), packed once into
 * node_modules/.cache/gatecheck-node/ and unpacked there. Each project installs the packed tarball, and the
 * old Node runs Playwright on a config spreading `gatecheckProjects()`: one rule against the bundled mock.
 * Below the floor the CLI answers in one line.
 *
 * Bounded: one rule per project, the tarball packed once (tests/package/packed.ts), the Node binary cached.
 * Skipped, saying so, only when the npm registry cannot be reached.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import semver from 'semver';
import { createConsumer, ROOT, registryReachable, run } from './consumer.ts';
import { packedTarball } from './packed.ts';

const manifest = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
};
/** The oldest Node `engines` admits: `>=20.19` → 20.19.0. */
const FLOOR = semver.minVersion(manifest.engines.node)?.version ?? 'unparsed';
const CACHE = path.join(ROOT, 'node_modules/.cache/gatecheck-node');

test.describe.configure({ timeout: 8 * 60_000 });

/** That Node's binary, from the registry's `node-<platform>-<arch>@<version>`, unpacked once. */
async function nodeBinary(version: string): Promise<string> {
  const dir = path.join(CACHE, version);
  const binary = path.join(dir, 'package/bin/node');
  if (existsSync(binary)) return binary;
  await mkdir(dir, { recursive: true });
  const name = `node-${process.platform}-${process.arch}@${version}`;
  const packed = await run('npm', ['pack', name, '--silent'], dir, 5 * 60_000);
  if (packed.code !== 0) throw new Error(`npm pack ${name} failed:\n${packed.stderr}`);
  const tarball = packed.stdout.trim().split('\n').at(-1) ?? '';
  const unpacked = await run('tar', ['-xzf', tarball, 'package/bin/node'], dir, 120_000);
  if (unpacked.code !== 0) throw new Error(`tar failed:\n${unpacked.stderr}`);
  return binary;
}

const CONFIG = `import { defineConfig } from '@playwright/test';
import { gatecheckProjects, gatecheckReporter } from 'gatecheck/playwright';

export default defineConfig({
  reporter: [['line'], gatecheckReporter({ outputDir: 'gatecheck-report' })],
  projects: [...gatecheckProjects()],
});
`;

test(`the oldest Node engines admits (${manifest.engines.node}) loads gatecheck/playwright from a CommonJS and an ES module config`, async () => {
  test.skip(!(await registryReachable()), 'npm registry unreachable (npm ping failed)');
  expect(manifest.engines.node, 'engines names a floor').toMatch(/^>=\d+(\.\d+){0,2}$/);
  const node = await nodeBinary(FLOOR);
  const version = await run(node, ['--version'], ROOT, 30_000);
  expect(version.stdout.trim()).toBe(`v${FLOOR}`);

  const consumer = await createConsumer(await packedTarball(), []);
  try {
    await consumer.write('playwright.config.ts', CONFIG);
    for (const type of ['commonjs', 'module'] as const) {
      const pkg = JSON.parse(await consumer.read('package.json'));
      await consumer.write('package.json', JSON.stringify({ ...pkg, type }, null, 2));
      const result = await consumer.run(
        node,
        [
          'node_modules/@playwright/test/cli.js',
          'test',
          '--grep',
          '@rule:auth\\.401\\.missing',
          '--workers',
          '1',
        ],
        4 * 60_000,
      );
      expect(result.code, `${type} on Node ${FLOOR}:\n${result.stdout}\n${result.stderr}`).toBe(0);
      const report = JSON.parse(await consumer.read('gatecheck-report/conformance.json')) as {
        rules: { id: string; verdict: string }[];
      };
      expect(report.rules.find((r) => r.id === 'auth.401.missing')?.verdict, type).toBe('pass');
    }
  } finally {
    await consumer.dispose();
  }
});

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
    await consumer.write('playwright.config.ts', CONFIG);
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
