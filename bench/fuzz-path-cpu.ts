/**
 * CPU time per fuzz case of the request path, client and target apart: every fuzz plan runs in this process as a
 * Playwright worker runs it (specs/fuzz/worker.ts: the scheduled node:http and raw-socket clients, the run's
 * scheduler, the observers), against the mock in a child process, for several rounds. Per round: µs of CPU
 * per case of this process (process.cpuUsage) and of the mock's (/proc/<pid>/stat, Linux), and cases/s.
 * Round 0 runs with the JIT cold, as a Playwright worker's first fuzz cases do; the later rounds warm.
 *
 * CPU time per case is what a shared machine lets through steadier than wall time: compare two commits by
 * running this from each tree, alternating (`npx tsx bench/fuzz-path-cpu.ts [rounds]`, default 5).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNodeHttpClient } from '../specs/fuzz/clients/node-http.ts';
import { createRawSocketClient } from '../specs/fuzz/clients/raw-socket.ts';
import { scheduledClient } from '../specs/fuzz/clients/scheduled.ts';
import { runPlan } from '../specs/fuzz/engine/run-plan.ts';
import { fuzzSettings } from '../specs/fuzz/engine/settings.ts';
import { createJwtKit } from '../specs/fuzz/jwt/kit.ts';
import { fuzzPlans } from '../specs/fuzz/plans/index.ts';
import { observeOutcome, observerFor } from '../specs/observe/observer.ts';
import type { Profile } from '../specs/profile/types.ts';
import { schedulerFor } from '../specs/run/scheduler.ts';
import { startMockProcess } from './mock-process.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const loaded = JSON.parse(readFileSync(`${root}fixtures/mock.profile.json`, 'utf8')) as Profile;
// Rounds repeat the default run's cases: the budget must not stop them.
const profile: Profile = { ...loaded, budget: { ...loaded.budget, maxRequests: 1e9, maxSeconds: 1e6 } };
const rounds = Number(process.argv[2] ?? 5);
// The observers' tallies go to a folder of this process's own (specs/run/observation-store.ts).
const observations = join(tmpdir(), `gatecheck-fuzz-path-${process.pid}`);
process.env.GATECHECK_OBSERVATIONS = observations;

// The mock in a child process of its own (bench/mock-process.ts), its CPU read from /proc apart from ours.
const child = await startMockProcess();
const baseUrl = child.url;

/** The mock's CPU time so far in µs (utime + stime, clock ticks of 10 ms), or NaN off Linux. */
function mockCpu(): number {
  const stat = `/proc/${child.pid}/stat`;
  if (!existsSync(stat)) return Number.NaN;
  const fields = (readFileSync(stat, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

try {
  const settings = fuzzSettings(profile, 2, {});
  const http = createNodeHttpClient({ timeoutMs: settings.timeoutMs, maxSockets: settings.concurrency });
  const raw = createRawSocketClient({ timeoutMs: settings.timeoutMs });
  const scheduler = schedulerFor(profile, baseUrl, settings.concurrency, {});
  const observe = observeOutcome(observerFor(profile, baseUrl));
  const clients = {
    http: scheduledClient(http, scheduler, observe),
    raw: scheduledClient(raw, scheduler, observe),
  };
  const warm: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const env = { profile, baseUrl, settings, kit: createJwtKit(profile), clients };
    const mockBefore = mockCpu();
    const cpu = process.cpuUsage();
    const started = performance.now();
    let cases = 0;
    for (const plan of fuzzPlans) {
      const outcome = await runPlan(plan, env);
      if (!('skipped' in outcome)) cases += outcome.result.stats.cases + outcome.result.stats.shrinkCases;
    }
    const used = process.cpuUsage(cpu);
    const ms = performance.now() - started;
    const client = (used.user + used.system) / cases;
    if (round > 0) warm.push(client);
    process.stdout.write(
      `round ${round}${round === 0 ? ' (cold)' : ''}: ${cases} cases, client ${client.toFixed(0)} µs CPU/case, ` +
        `mock ${((mockCpu() - mockBefore) / cases).toFixed(0)} µs CPU/case, ${Math.round((cases / ms) * 1000)} cases/s\n`,
    );
  }
  warm.sort((a, b) => a - b);
  if (warm.length > 0)
    process.stdout.write(
      `client, warm rounds: median ${warm[Math.floor(warm.length / 2)]?.toFixed(0)} µs CPU/case\n`,
    );
  http.close();
} finally {
  await child.stop();
  rmSync(observations, { recursive: true, force: true });
}
process.exit(0);
