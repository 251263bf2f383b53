/**
 * @playwright/test is a peer dependency (docs/package.md "Playwright versions"): the package runs on the
 * user's own Playwright, never a second copy of its own ("Requiring @playwright/test second time"). Here the
 * packed tarball is installed into fresh projects pinned at the oldest supported minor, one between, and the
 * newest (the version this repository develops on), and in each the suite runs as projects of the
 * project's own playwright.config.ts (`gatecheckProjects`), through the `gatecheck` CLI, and type-checks.
 *
 * Bounded: a slice of the catalogue per version, installs from npm's cache when it holds the packages
 * (`--prefer-offline`), the tarball packed once (tests/package/packed.ts). Skipped, saying so, only when the
 * npm registry cannot be reached.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { consumerTsconfig, createConsumer, ROOT, registryReachable } from './consumer.ts';
import { packedTarball } from './packed.ts';

const manifest = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
};
const PEER_RANGE = manifest.peerDependencies?.['@playwright/test'] ?? '';
/** The range's floor: `^1.42.0` → 1.42.0. */
const OLDEST = /^\^(\d+\.\d+\.\d+)$/.exec(PEER_RANGE)?.[1];
/** The version this repository pins for its own development: the newest supported. */
const NEWEST = manifest.devDependencies['@playwright/test'];
/**
 * One between: the last minor whose ES module entry does not list `_baseTest` (1.60 does), so the suite's
 * bare test type is found through the CommonJS entry (specs/lib/base-test.ts).
 */
const BETWEEN = '1.55.1';

const TYPE_CHECK_PACKAGES = [
  `typescript@${manifest.devDependencies.typescript}`,
  `@types/node@${manifest.devDependencies['@types/node']}`,
];

const CONFIG = `import { defineConfig } from '@playwright/test';
import { gatecheckGlobalSetup, gatecheckProjects, gatecheckReporter } from 'gatecheck/playwright';

export default defineConfig({
  globalSetup: gatecheckGlobalSetup,
  reporter: [['line'], gatecheckReporter({ outputDir: 'gatecheck-report' })],
  projects: [...gatecheckProjects({ profile: './node_modules/gatecheck/fixtures/mock.profile.json' })],
});
`;

/**
 * `skipLibCheck`: Playwright's own declarations before 1.5x write namespaces as `module`, which TypeScript 7
 * refuses (TS1540) in any project; the config's use of the package's types is still checked.
 */
const TSCONFIG = consumerTsconfig(['playwright.config.ts'], { skipLibCheck: true });

/** Prints which test type the suite stands on with this Playwright (specs/lib/base-test.ts). */
const BASE_TEST_KIND = `const { baseTest } = await import('./node_modules/gatecheck/dist/specs/lib/base-test.js');
console.log(baseTest.kind, baseTest.reason ?? '');`;

test.describe.configure({ timeout: 6 * 60_000 });

test('the peer range is a caret range from the oldest supported minor', () => {
  expect(PEER_RANGE, 'package.json peerDependencies["@playwright/test"]').toMatch(/^\^1\.\d+\.0$/);
  expect(manifest.devDependencies['@playwright/test'], 'the development pin is exact').toMatch(
    /^\d+\.\d+\.\d+$/,
  );
  expect(
    manifest.dependencies['@playwright/test'],
    'not also a dependency (npm would nest a second copy)',
  ).toBeUndefined();
});

for (const version of [OLDEST ?? 'unparsed', BETWEEN, NEWEST ?? 'unpinned']) {
  test(`@playwright/test ${version}: gatecheckProjects and the CLI run on the project's own Playwright`, async () => {
    test.skip(
      !(await registryReachable()),
      `npm registry unreachable (npm ping failed): cannot install @playwright/test@${version} beside the tarball`,
    );
    const consumer = await createConsumer(await packedTarball(), [
      `@playwright/test@${version}`,
      ...TYPE_CHECK_PACKAGES,
    ]);
    try {
      // One Playwright: the project's, at its pinned version; none nested under gatecheck.
      const installed = JSON.parse(await consumer.read('node_modules/@playwright/test/package.json'));
      expect(installed.version).toBe(version);
      expect(existsSync(path.join(consumer.dir, 'node_modules/gatecheck/node_modules/@playwright'))).toBe(
        false,
      );
      expect(existsSync(path.join(consumer.dir, 'node_modules/gatecheck/node_modules/playwright'))).toBe(
        false,
      );

      // The bare test type, not the fallback: the checks run without the browser fixtures on every version.
      await consumer.write('base-test.mjs', BASE_TEST_KIND);
      const kind = await consumer.run('node', ['base-test.mjs'], 60_000);
      expect(kind.stdout.trim(), kind.stderr).toBe('bare');

      await consumer.write('playwright.config.ts', CONFIG);
      await consumer.write('tsconfig.json', TSCONFIG);
      const checked = await consumer.run('npx', ['tsc', '-p', 'tsconfig.json'], 120_000);
      expect(checked.code, checked.stdout + checked.stderr).toBe(0);

      const projects = await consumer.run(
        'npx',
        [
          'playwright',
          'test',
          '--grep',
          '@rule:(auth\\.401\\.missing|success\\.200\\.protected|observed\\.)',
        ],
        3 * 60_000,
      );
      expect(projects.code, `${projects.stdout}\n${projects.stderr}`).toBe(0);
      const report = JSON.parse(await consumer.read('gatecheck-report/conformance.json')) as {
        rules: { id: string; verdict: string }[];
      };
      const passed = report.rules.filter((r) => r.verdict === 'pass').map((r) => r.id);
      expect(passed).toEqual(
        expect.arrayContaining(['auth.401.missing', 'success.200.protected', 'observed.no-stack']),
      );

      const cli = await consumer.run(
        'npx',
        ['gatecheck', '--only', 'auth.401.missing,success.200.protected', '--report-dir', 'cli-report'],
        3 * 60_000,
      );
      expect(cli.code, `${cli.stdout}\n${cli.stderr}`).toBe(0);
      for (const file of ['conformance.json', 'junit.xml', 'playwright-html/index.html'])
        expect(existsSync(path.join(consumer.dir, 'cli-report', file)), file).toBe(true);
    } finally {
      await consumer.dispose();
    }
  });
}
