/**
 * The packed package on the Node releases users run (issue #71): the oldest `engines` admits and the newest 22
 * and 24 LTS (./node-releases.ts), each binary from the npm registry. On each, with that Node first on PATH — so
 * `npx`, the `gatecheck` and `gatecheck-mock` bins (`#!/usr/bin/env node`) and Playwright's workers all run on it:
 * - the first hour of docs/package.md "From an empty directory" and docs/ci.md "Publishing a conformance
 *   statement": `npx gatecheck-mock`, then (the bins by name, as package.json scripts run them)
 *   `eval "$(gatecheck-mock --print-env)"`, `gatecheck init` on the mock's /openapi.json with `--writes`,
 *   `keygen`, a signed run (a slice of the catalogue) and `verify`;
 * - `gatecheckProjects()` spread in a CommonJS `playwright.config.ts`, run for one rule (npm's default project
 *   type is CommonJS: Playwright compiles the config to it, `import` becoming `require()` of an ES module, which
 *   Node does from 20.19), and in an ES module one, listed.
 * Each run prints the versions it used (Node, npm, the suite and Playwright, as `gatecheck --version` says) and
 * checks that the mock's Node processes run that binary (/proc/<pid>/exe).
 *
 * Bounded: one install for every release — the copy of tests/package/consumer.ts's installed project, made by
 * npm once per tarball (no package of it has an install script, checked below, so what Node installed it does
 * not matter); a slice of the catalogue per run; each binary fetched once. Skipped, saying so, only when the npm
 * registry cannot be reached.
 */
import { readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { type Consumer, createConsumer, ROOT, registryReachable } from './consumer.ts';
import { ENGINES_NODE, FLOOR, LTS_RELEASES, nodeBinary } from './node-releases.ts';
import { packedTarball } from './packed.ts';
import { killAll, start } from './processes.ts';
import { SPREAD_CONFIG } from './spread-config.ts';

test.describe.configure({ timeout: 8 * 60_000 });

/** The signed run's slice: the 401 rules and the write rules `init --writes` makes runnable. */
const SLICE = 'auth.401.*,success.200.*';

/** The program a process runs (Linux: /proc/<pid>/exe), or undefined once it is gone. */
function executableOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return undefined;
  }
}

/** Runs `command` in the project on `env`'s PATH; fails the test with its output unless it exits 0. */
async function ok(
  consumer: Consumer,
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs = 4 * 60_000,
): Promise<string> {
  const result = await consumer.run(command, args, timeoutMs, env);
  expect(
    result.code,
    `${command} ${args.join(' ')}\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-2000)}`,
  ).toBe(0);
  return result.stdout;
}

/** Node, npm and `gatecheck --version`, printed and kept as the test's annotation. */
async function versionsUsed(consumer: Consumer, env: Record<string, string>, version: string): Promise<void> {
  const node = (await ok(consumer, 'node', ['--version'], env)).trim();
  expect(node, 'the Node first on PATH').toBe(`v${version}`);
  const npm = (await ok(consumer, 'npm', ['--version'], env)).trim();
  const bin = 'node_modules/gatecheck/bin/gatecheck.js';
  const gatecheck = (await ok(consumer, 'node', [bin, '--version'], env)).trim().replace(/\n+/g, '; ');
  const description = `Node ${node} (npm ${npm}): ${gatecheck}`;
  test.info().annotations.push({ type: 'versions', description });
  console.log(`[Node ${version}] ${description}`);
}

/** The first hour, as a newcomer types it, against `npx gatecheck-mock` on this Node. */
async function firstHour(consumer: Consumer, env: Record<string, string>, binary: string): Promise<void> {
  const mock = start('npx', ['gatecheck-mock', '--port', '0'], consumer.dir, env);
  try {
    const url = (await mock.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/, 60_000))[1] ?? '';
    // npx and the bin it starts (through `sh -c`) are Node processes: each runs this release's binary.
    const programs = [mock.pid, ...mock.descendants().map((p) => p.pid)]
      .map(executableOf)
      .filter((exe): exe is string => exe !== undefined && !/\/(ba|da)?sh$/.test(exe));
    expect(programs.length, 'npx and gatecheck-mock').toBeGreaterThanOrEqual(2);
    expect(new Set(programs)).toEqual(new Set([realpathSync(binary)]));
    await consumer.write(
      'first-hour.sh',
      [
        // The project's bins by name, as its package.json scripts run them (npm puts node_modules/.bin on PATH):
        // npx started the mock above; five more would cost ≈ 3 CPU-s a release, for npm's code, not the package's.
        'set -e',
        'PATH="$PWD/node_modules/.bin:$PATH"',
        'eval "$(gatecheck-mock --print-env)"',
        `gatecheck init ${url}/openapi.json --out target.profile.json --writes`,
        'gatecheck keygen --out vendor',
        `gatecheck --base-url ${url} --profile target.profile.json --sign-key vendor.key --only '${SLICE}'`,
        'gatecheck verify reports/conformance.intoto.jsonl --key vendor.pub',
      ].join('\n'),
    );
    const out = await ok(
      consumer,
      'bash',
      ['first-hour.sh'],
      { ...env, GATECHECK_BUDGET: '400' },
      6 * 60_000,
    );
    expect(out).toContain('attests: Partial: no rule fails');
    const report = JSON.parse(await consumer.read('reports/conformance.json')) as {
      rules: { id: string; verdict: string }[];
    };
    const slice = report.rules.filter((r) => /^(auth\.401\.|success\.200\.)/.test(r.id));
    expect(slice.map((r) => r.id)).toEqual(expect.arrayContaining(['auth.401.missing', 'success.200.post']));
    expect(slice.filter((r) => r.verdict !== 'pass').map((r) => `${r.id}: ${r.verdict}`)).toEqual([]);
  } finally {
    const below = mock.descendants().map((p) => p.pid);
    process.kill(mock.pid, 'SIGTERM');
    await Promise.race([mock.exited, new Promise((done) => setTimeout(done, 10_000))]);
    killAll([mock.pid, ...below]);
  }
}

/**
 * `gatecheckProjects()` in a CommonJS project — Node's `require()` of the ES module, the path a Node release can
 * break — run for one rule against the bundled mock (the set-up project, a worker, the report); then in an ES
 * module project, listed (`--list`: the config loads, the projects are made and the checks found), since its
 * `import` is the one Node has always had and running a rule there repeats the first (≈ 2.5 CPU-s a release).
 */
async function spreadInConfig(
  consumer: Consumer,
  env: Record<string, string>,
  binary: string,
): Promise<void> {
  const playwright = ['node_modules/@playwright/test/cli.js', 'test'];
  const typed = async (type: 'commonjs' | 'module') => {
    const pkg = JSON.parse(await consumer.read('package.json'));
    await consumer.write('package.json', JSON.stringify({ ...pkg, type }, null, 2));
  };
  await consumer.write('playwright.config.ts', SPREAD_CONFIG);
  await typed('commonjs');
  await ok(consumer, binary, [...playwright, '--grep', '@rule:auth\\.401\\.missing', '--workers', '1'], env);
  const report = JSON.parse(await consumer.read('gatecheck-report/conformance.json')) as {
    rules: { id: string; verdict: string }[];
  };
  expect(report.rules.find((r) => r.id === 'auth.401.missing')?.verdict, 'commonjs').toBe('pass');
  await typed('module');
  const listed = await ok(
    consumer,
    binary,
    [...playwright, '--list', '--grep', '@rule:auth\\.401\\.missing'],
    env,
  );
  expect(listed, 'module: the rule found in the gatecheck project').toMatch(/^\s*\[gatecheck\] › /m);
  expect(listed, 'module').toMatch(/^Total: \d+ tests? in \d+ files?$/m);
}

for (const version of [FLOOR, ...LTS_RELEASES]) {
  test(`Node ${version}${version === FLOOR ? ` (the floor of ${ENGINES_NODE})` : ''}: the first hour — mock, --print-env, init --writes, a signed run, verify — and gatecheckProjects in a CommonJS and an ES module config`, async () => {
    test.skip(!(await registryReachable()), 'npm registry unreachable (npm ping failed)');
    const binary = await nodeBinary(version);
    const consumer = await createConsumer(await packedTarball(), []);
    try {
      const lock = JSON.parse(await consumer.read('package-lock.json')) as {
        packages: Record<string, { hasInstallScript?: boolean }>;
      };
      const built = Object.keys(lock.packages).filter((where) => lock.packages[where]?.hasInstallScript);
      expect(
        built,
        'packages with an install script: their build would depend on the installing Node',
      ).toEqual([]);
      const env = { PATH: `${path.dirname(binary)}${path.delimiter}${process.env.PATH ?? ''}` };
      await test.step('versions', () => versionsUsed(consumer, env, version));
      await test.step('the first hour', () => firstHour(consumer, env, binary));
      await test.step('gatecheckProjects in a CommonJS and an ES module config', () =>
        spreadInConfig(consumer, env, binary));
    } finally {
      await consumer.dispose();
    }
  });
}

test('README and docs/package.md name the Node releases run here', async () => {
  const section = (text: string, heading: string): string => {
    const start = text.indexOf(heading);
    expect(start, heading).toBeGreaterThan(0);
    return text.slice(start, text.indexOf('\n## ', start + heading.length));
  };
  const readme = section(await readFile(path.join(ROOT, 'README.md'), 'utf8'), '### Node versions');
  const docs = section(readFileSync(path.join(ROOT, 'docs/package.md'), 'utf8'), '## Node versions');
  for (const version of [FLOOR, ...LTS_RELEASES]) {
    expect(readme, `README "Node versions" names ${version}`).toContain(version);
    expect(docs, `docs/package.md "Node versions" names ${version}`).toContain(version);
  }
});
