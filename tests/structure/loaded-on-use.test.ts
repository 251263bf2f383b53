/**
 * Libraries loaded only when used (docs/performance.md "Start-up: what is loaded only when used"): a mock
 * counting in memory starts without ioredis and rate-limiter-flexible (≈ 70 ms), and a suite worker, which
 * reads a profile global setup already validated, runs without Ajv (≈ 30 ms). Each case is a fresh Node
 * process (a library loaded once stays loaded); each is shown loading the library when it is used, so the
 * check can tell the two apart.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { closedPort } from '../cli/broken-target.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Runs `body` as an ES module (top-level await) under tsx in the project root; prints `loaded(name)` results. */
function loadedAfter(body: string): Promise<Record<string, boolean>> {
  const script = `
import { createRequire } from 'node:module';
const cache = createRequire(import.meta.url).cache;
const loaded = (name) => Object.keys(cache).some((file) => file.includes(\`/node_modules/\${name}/\`));
${body}
process.stdout.write(JSON.stringify(Object.fromEntries(['ioredis', 'rate-limiter-flexible', 'ajv'].map((n) => [n, loaded(n)]))));
process.exit(0);`;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: ROOT, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as Record<string, boolean>);
      },
    );
  });
}

test('a mock counting in memory starts without the shared store’s libraries; one with a Redis store loads them', async () => {
  const start = (options: string) =>
    `const { startMock } = await import('./mock/server.ts');\nconst mock = await startMock(${options});\nawait mock.close();`;
  const inMemory = await loadedAfter(start('{}'));
  expect(inMemory).toMatchObject({ ioredis: false, 'rate-limiter-flexible': false });
  // A loopback port nothing listens on: the Redis client's connection is refused, no traffic leaves.
  const port = await closedPort();
  const shared = await loadedAfter(
    start(`{ store: { redisUrl: 'redis://127.0.0.1:${port}', prefix: 'lazy', timeoutMs: 100 } }`),
  );
  expect(shared).toMatchObject({ ioredis: true, 'rate-limiter-flexible': true });
});

test('a suite worker reads a profile global setup checked without Ajv; an unchecked one loads it', async () => {
  // What a worker does (specs/run-target.ts): the fixtures, then the profile, whose digest global setup passed on.
  const read = (checked: boolean) => `await import('./specs/kit/fixtures.ts');
const { readFileSync } = await import('node:fs');
const { PROFILE_CHECKED_ENV, profileDigest, readProfile } = await import('./specs/profile/load.ts');
const path = 'fixtures/mock.profile.json';
const env = ${checked} ? { [PROFILE_CHECKED_ENV]: profileDigest(readFileSync(path, 'utf8')) } : {};
readProfile(path, env);`;
  expect((await loadedAfter(read(true))).ajv).toBe(false);
  expect((await loadedAfter(read(false))).ajv).toBe(true);
});
