/**
 * The package as its users get it (docs/package.md): `npm pack`, installed into a fresh project outside this
 * repository; there `npx gatecheck` checks a mock started with `npx gatecheck-mock`, a consumer file that
 * imports the public API type-checks, and the suite runs as one project of the consumer's own
 * `playwright.config.ts`, beside the consumer's own test. Slow (npm install); skipped only when the npm
 * registry cannot be reached.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parse as parseShell } from 'shell-quote';
import { type Consumer, consumerTsconfig, createConsumer, ROOT, registryReachable, run } from './consumer.ts';
import { packedTarball } from './packed.ts';

/** The consumer's type-checker: the versions this repository pins, from the npm registry. */
const devPins = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')).devDependencies as Record<
  string,
  string
>;
const TYPE_CHECK_PACKAGES = [`typescript@${devPins.typescript}`, `@types/node@${devPins['@types/node']}`];

const CONSUMER_FILE = `import { type RunningMock, startMock } from 'gatecheck/mock';
import { gatecheckProjects } from 'gatecheck/playwright';
import { loadProfile, type Profile, PROFILE_SCHEMA_PATH } from 'gatecheck/profile';

const mock: RunningMock = await startMock({ port: 0 });
const profile: Profile = loadProfile('./node_modules/gatecheck/fixtures/mock.profile.json');
// @ts-expect-error the mock's URL is a string: the package's types are real, not \`any\`
const wrong: number = mock.url;
console.log(profile.name, PROFILE_SCHEMA_PATH, gatecheckProjects({ baseUrl: mock.url }).map((p) => p.name), wrong);
await mock.close();
`;

/** The README's way in: the suite as two more projects (checks, observers), its global setup and reporter one line each. */
const CONSUMER_CONFIG = `import { defineConfig } from '@playwright/test';
import { gatecheckGlobalSetup, gatecheckProjects, gatecheckReporter } from 'gatecheck/playwright';

export default defineConfig({
  globalSetup: gatecheckGlobalSetup,
  reporter: [['line'], gatecheckReporter({ outputDir: 'gatecheck-report' })],
  projects: [
    { name: 'own', testDir: 'own-tests' },
    ...gatecheckProjects({ profile: './node_modules/gatecheck/fixtures/mock.profile.json' }),
  ],
});
`;

const OWN_TEST = `import { expect, test } from '@playwright/test';
test('the consumer keeps its own tests', () => expect(1 + 1).toBe(2));
`;

test.describe.configure({ mode: 'serial', timeout: 15 * 60_000 });

let work: string;
let consumer: Consumer | undefined;
let tarball: string;

test.beforeAll(async () => {
  test.setTimeout(10 * 60_000);
  test.skip(
    !(await registryReachable()),
    'npm registry unreachable (npm ping failed): cannot install the tarball',
  );
  work = await mkdtemp(path.join(tmpdir(), 'gatecheck-pack-'));
  tarball = await packedTarball();
  consumer = await createConsumer(tarball, TYPE_CHECK_PACKAGES);
});

test.afterAll(async () => {
  await consumer?.dispose();
  if (work) await rm(work, { recursive: true, force: true });
});

test('the tarball holds the compiled package, its fixtures and schemas, and no tests, benches or reports', async () => {
  const listed = await run('tar', ['tzf', tarball], work, 60_000);
  const files = listed.stdout
    .trim()
    .split('\n')
    .map((f) => f.replace(/^package\//, ''));
  expect(files).toEqual(
    expect.arrayContaining([
      'package.json',
      'bin/gatecheck.js',
      'bin/gatecheck-mock.js',
      'dist/cli/main.js',
      'dist/mock/server.d.ts',
      'dist/playwright.config.js',
      'fixtures/schemas/profile.schema.json',
      'fixtures/mock.profile.json',
      // json-server's data engine, copied by the build with its licence (scripts/vendor-json-server.ts).
      'dist/vendor/json-server/lib/service.js',
      'dist/vendor/json-server/lib/parse-where.js',
      'dist/vendor/json-server/LICENSE',
    ]),
  );
  const unwanted = files.filter(
    (f) =>
      /^(tests|bench|reports|scripts|test-results|node_modules)\//.test(f) ||
      (f.endsWith('.ts') && !f.endsWith('.d.ts')),
  );
  expect(unwanted).toEqual([]);
  // json-server itself is not installed: its engines (Node ≥ 22.12, for its CLI) would exclude Node 20.19.
  expect(consumer?.dir && existsSync(path.join(consumer.dir, 'node_modules/json-server'))).toBe(false);
  // Installed as a copy, not a link back into the repository.
  expect(
    consumer?.dir && existsSync(path.join(consumer.dir, 'node_modules/gatecheck/dist/cli/main.js')),
  ).toBe(true);
});

test('npx gatecheck checks a mock started with npx gatecheck-mock: exit 0, reports written', async () => {
  const c = consumer as Consumer;
  const mock = await c.startMock();
  try {
    const result = await c.run(
      'npx',
      [
        'gatecheck',
        '--base-url',
        mock.url,
        '--profile',
        'node_modules/gatecheck/fixtures/mock.profile.json',
        '--report-dir',
        'out',
      ],
      8 * 60_000,
    );
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  } finally {
    await mock.stop();
  }
  for (const file of ['conformance.json', 'conformance.html', 'summary.md', 'junit.xml'])
    expect(existsSync(path.join(c.dir, 'out', file)), file).toBe(true);
  const report = await c.read('out/conformance.json');
  expect(report).not.toContain(ROOT);
});

test('npx gatecheck-mock --help names itself gatecheck-mock', async () => {
  const help = await (consumer as Consumer).run('npx', ['gatecheck-mock', '--help'], 60_000);
  expect(help.code, help.stderr).toBe(0);
  expect(help.stdout.split('\n')[0]).toBe('Usage: gatecheck-mock [options]');
});

test('a consumer file importing gatecheck/mock, gatecheck/profile and gatecheck/playwright type-checks', async () => {
  const c = consumer as Consumer;
  await c.write('consumer.ts', CONSUMER_FILE);
  await c.write('tsconfig.json', consumerTsconfig(['consumer.ts']));
  const checked = await c.run('npx', ['tsc', '-p', 'tsconfig.json'], 120_000);
  expect(checked.code, checked.stdout + checked.stderr).toBe(0);
});

test("the suite runs as projects of the consumer's playwright.config.ts, observers included, beside its own test", async () => {
  const c = consumer as Consumer;
  await c.write('playwright.config.ts', CONSUMER_CONFIG);
  await run('mkdir', ['-p', 'own-tests'], c.dir, 10_000);
  await c.write('own-tests/own.spec.ts', OWN_TEST);
  // A bounded slice of the catalogue (the 401 rules), the observers' verdicts and the consumer's own test.
  const result = await c.run(
    'npx',
    ['playwright', 'test', '--grep', '@rule:(auth\\.401\\.|observed\\.)|consumer keeps'],
    8 * 60_000,
  );
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  expect(result.stdout).toContain('[own]');
  expect(result.stdout).toContain('[gatecheck]');
  expect(result.stdout).toContain('[gatecheck-observers]');
  const report = JSON.parse(await c.read('gatecheck-report/conformance.json')) as {
    rules: { id: string; verdict: string }[];
  };
  const passed = report.rules.filter((r) => r.verdict === 'pass').map((r) => r.id);
  expect(passed).toContain('auth.401.missing');
  // The observers teardown judged the run's answers: the observed.* rules are in the consumer's report.
  expect(passed).toEqual(expect.arrayContaining(['observed.401.challenge', 'observed.no-stack']));
});

/** The commands of docs/ci.md "Publishing a conformance statement", as the installed package ships that page. */
async function publishingCommands(c: Consumer): Promise<string[][]> {
  const page = await c.read('node_modules/gatecheck/docs/ci.md');
  const section = page.split('\n## Publishing a conformance statement\n')[1] ?? '';
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.startsWith('npx gatecheck'))
    .map((line) => parseShell(line).filter((part): part is string => typeof part === 'string'));
}

test("docs/ci.md's commands for publishing a conformance statement run from the installed package: keygen, a signed run, verify", async () => {
  const c = consumer as Consumer;
  const commands = await publishingCommands(c);
  expect(commands.map((argv) => argv[2])).toEqual(['keygen', '--profile', 'verify']);
  // The page's target.json: the bundled mock's profile (no baseUrl, so the suite starts its mock).
  await c.write('target.json', await c.read('node_modules/gatecheck/fixtures/mock.profile.json'));
  const outputs: string[] = [];
  for (const argv of commands) {
    // The one change to the page's lines: the signed run checks one rule, to keep this test short.
    const args = argv[2] === '--profile' ? [...argv.slice(1), '--only', 'auth.401.missing'] : argv.slice(1);
    const result = await c.run('npx', args, 5 * 60_000);
    expect(result.code, `${argv.join(' ')}\n${result.stdout}\n${result.stderr}`).toBe(0);
    outputs.push(result.stdout + result.stderr);
  }
  expect(outputs[2]).toContain('attests: Partial: no rule fails');
  const privateKey = await c.read('vendor.key');
  const body = privateKey.split('\n').filter((l) => l && !l.startsWith('-----'));
  for (const output of outputs) for (const line of body) expect(output).not.toContain(line);

  // One byte of the published report changed: the reader's verify fails, naming the report.
  const report = await c.read('reports/conformance.json');
  await c.write('reports/conformance.json', report.replace('"strict": false', '"strict": true '));
  const tampered = await c.run('npx', commands[2]?.slice(1) ?? [], 120_000);
  expect(tampered.code).toBe(1);
  expect(tampered.stderr).toMatch(/^gatecheck: verify failed: report: its SHA-256 is [0-9a-f]{64}, .*\n$/);
});
