/**
 * The installed package runs compiled JavaScript, so `npx gatecheck` starts Playwright without its TypeScript
 * loader (shared/typescript-loader.ts, asked by the CLI and the config): on Node 20 that loader is a thread
 * every module import crosses, ≈ 1 CPU-s of a default run (docs/performance.md, "#36, twelfth pass"). A TypeScript
 * reporter the user names keeps it in the runner, which loads reporters; the workers never need it.
 *
 * Seen directly: a `--require` probe in NODE_OPTIONS wraps `module.register`, the call by which Playwright
 * registers that loader on Node 20, and writes at each process's exit whether it was called.
 * Skipped, saying so, only when the npm registry cannot be reached.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { type Consumer, createConsumer, registryReachable } from './consumer.ts';
import { packedTarball } from './packed.ts';

const PROBE = `const fs = require('node:fs');
const nodeModule = require('node:module');
const entry = process.argv[1] ?? '';
const kind = /worker/i.test(entry) ? 'worker' : /cli\\.js$/.test(entry) && process.argv[2] === 'test' ? 'runner' : 'other';
const register = nodeModule.register;
let registered = false;
if (register) nodeModule.register = function (...args) { registered = true; return register.apply(this, args); };
process.on('exit', () => fs.appendFileSync(process.env.LOADER_PROBE_LOG, JSON.stringify({ kind, registered }) + '\\n'));
`;

/** A reporter only Playwright's TypeScript loader can load: it has a type annotation. */
const TS_REPORTER = `export default class Mine {
  count: number = 0;
  onTestEnd(): void { this.count++; }
  onEnd(): void { console.log(\`mine: \${this.count} tests\`); }
}
`;

test.describe.configure({ mode: 'serial', timeout: 8 * 60_000 });

let consumer: Consumer | undefined;

test.beforeAll(async () => {
  test.setTimeout(10 * 60_000);
  test.skip(!(await registryReachable()), 'npm registry unreachable (npm ping failed)');
  consumer = await createConsumer(await packedTarball(), []);
  await consumer.write('loader-probe.cjs', PROBE);
  await consumer.write('mine.ts', TS_REPORTER);
});

test.afterAll(async () => {
  await consumer?.dispose();
});

/** `npx gatecheck --only auth.401.missing <extra>` against the bundled mock; the probe's lines by kind. */
async function probedRun(log: string, extra: readonly string[]) {
  const c = consumer as Consumer;
  const result = await c.run(
    'npx',
    ['gatecheck', '--only', 'auth.401.missing', '--report-dir', 'out', ...extra],
    4 * 60_000,
    {
      NODE_OPTIONS: `--require ${path.join(c.dir, 'loader-probe.cjs')}`,
      LOADER_PROBE_LOG: path.join(c.dir, log),
    },
  );
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  const lines = (await readFile(path.join(c.dir, log), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { kind: string; registered: boolean });
  const of = (kind: string) => lines.filter((l) => l.kind === kind).map((l) => l.registered);
  return { result, runner: of('runner'), workers: of('worker') };
}

test('npx gatecheck: neither the runner nor any worker registers Playwright’s TypeScript loader', async () => {
  const { runner, workers } = await probedRun('plain.log', []);
  expect(runner).toEqual([false]);
  // The check's worker and the observers'.
  expect(workers.length).toBeGreaterThanOrEqual(2);
  expect(workers.every((registered) => !registered)).toBe(true);
});

test('with a TypeScript reporter of the user’s: the runner keeps the loader and loads it, the workers need none', async () => {
  const { result, runner, workers } = await probedRun('reporter.log', ['--', '--reporter=list,./mine.ts']);
  expect(result.stdout).toContain('mine: ');
  expect(runner).toEqual([true]);
  expect(workers.length).toBeGreaterThanOrEqual(2);
  expect(workers.every((registered) => !registered)).toBe(true);
});
