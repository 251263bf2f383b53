/**
 * Throughput of the fuzz engine without Playwright: starts the mock in a child process (as the conformance
 * run's global setup puts it in another process than the workers), runs every fuzz plan in this process
 * with the mock profile's whole concurrency, and prints cases, wall time and cases/s.
 *
 *   npx tsx tests/fuzz/engine-throughput.ts
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createNodeHttpClient } from '../../specs/fuzz/clients/node-http.ts';
import { createRawSocketClient } from '../../specs/fuzz/clients/raw-socket.ts';
import { runPlan } from '../../specs/fuzz/engine/run-plan.ts';
import { fuzzSettings } from '../../specs/fuzz/engine/settings.ts';
import { createJwtKit } from '../../specs/fuzz/jwt/kit.ts';
import { fuzzPlans } from '../../specs/fuzz/plans/index.ts';
import type { Profile } from '../../specs/profile/types.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const profile = JSON.parse(readFileSync(`${root}fixtures/mock.profile.json`, 'utf8')) as Profile;

const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    '--input-type=module',
    '-e',
    "const m = await (await import('./mock/server.ts')).startMock({ port: 0 }); console.log(m.url);",
  ],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
);
const baseUrl = await new Promise<string>((resolve, reject) => {
  child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
  child.once('exit', (code) => reject(new Error(`mock exited with ${code}`)));
});

try {
  const settings = fuzzSettings(profile, 1);
  const http = createNodeHttpClient({ timeoutMs: settings.timeoutMs, maxSockets: settings.concurrency });
  const env = {
    profile,
    baseUrl,
    settings,
    kit: createJwtKit(profile),
    clients: { http, raw: createRawSocketClient({ timeoutMs: settings.timeoutMs }) },
  };
  const started = performance.now();
  let cases = 0;
  for (const plan of fuzzPlans) {
    const outcome = await runPlan(plan, env);
    if ('skipped' in outcome) {
      process.stdout.write(`${plan.rule.id}: skipped (${outcome.skipped})\n`);
      continue;
    }
    cases += outcome.result.stats.cases + outcome.result.stats.shrinkCases;
    if (outcome.result.failure) process.stdout.write(`${outcome.result.failure.message}\n`);
  }
  const ms = performance.now() - started;
  http.close();
  process.stdout.write(
    `engine alone: ${cases} cases in ${Math.round(ms)} ms, ${Math.round((cases / ms) * 1000)} cases/s, ${settings.concurrency} in flight, seed ${settings.seed}\n`,
  );
} finally {
  child.kill();
}
