/**
 * Mock throughput and latency against bare json-server (docs/design.md "Performance targets": every authenticated
 * `GET /users` at 0.8× bare json-server or better, in the same run) and against the physical limit: a bare
 * node:http server answering the same bytes (every authenticated scheme, the 401 and the 400 path at 0.70× of
 * it or better, Apikey costing no more than Bearer), and the schemes side by side: none of them nor the 401
 * path more than 15 % behind the fastest (bench/scheme-spread.ts; `npm run bench` exits 1 when one is).
 *
 * Method: each server runs in a child process of its own (bare json-server's CLI; the mock via
 * bench/mock-child.ts); autocannon runs here, so on a 2-core machine the server and the load generator each
 * have a core. Cases are measured in rounds; each round runs every case once, in an order rotated from the
 * previous round (A B C…, B C…A, …) so drift on a shared machine spreads over all cases; a case's ratio is
 * taken against bare json-server's figure OF THE SAME ROUND, and the report gives the median ratio and its
 * spread over rounds.
 *
 * The ceiling of a mock case: before the rounds, the mock's answer to the case's request is recorded once
 * (status, header fields, body: bench/recorded-answer.ts) and handed to the ceiling process, which replays
 * those bytes at a path of their own. In each round the case's ceiling is measured right next to the case
 * (after it in even rounds, before it in odd ones), with the same request headers, and the case's "× ceiling"
 * is its requests/s over that figure.
 */

import { loadavg } from 'node:os';
import { type CeilingProcess, startCeiling } from './ceiling-process.ts';
import { type JsonServerProcess, startJsonServer } from './json-server-process.ts';
import { type LoadResult, runLoad } from './load.ts';
import { type MockProcess, startMockProcess } from './mock-process.ts';
import { recordAnswer } from './recorded-answer.ts';
import { type SchemeSpread, SPREAD_CASES, schemeSpread } from './scheme-spread.ts';
import { authorizationValues, MALFORMED_AUTHORIZATION, type MockName, mockConfigs } from './setups.ts';

export type ServerName = 'ceiling' | 'bare' | 'bareDev' | MockName;
const MOCK_NAMES: readonly MockName[] = ['public', 'auth', 'unauthenticated', 'malformed', 'limited'];

export interface MockCase {
  readonly id: string;
  readonly label: string;
  readonly server: ServerName;
  readonly headers: Record<string, string>;
  readonly expectedStatus: number;
  /** Counts toward the 0.8× target. */
  readonly authenticated: boolean;
  /** Counts toward the 0.70× ceiling target (each authenticated scheme, the 401 and the 400 path). */
  readonly errorPath: boolean;
}

export interface MockBenchOptions {
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly rounds: number;
  readonly connections: number;
  /** Connection counts of the scaling series (bare json-server and the mock with a Bearer RS256). */
  readonly scaleConnections: readonly number[];
  /** Write a CPU profile of each mock process here (node --cpu-prof). */
  readonly cpuProfDir?: string | undefined;
  readonly log: (line: string) => void;
}

export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

export interface CaseReport {
  readonly id: string;
  readonly label: string;
  readonly expectedStatus: number;
  readonly authenticated: boolean;
  readonly requestsPerSecond: Spread;
  readonly latencyP50: Spread;
  readonly latencyP99: Spread;
  /** Against bare json-server in the same round; bare itself is 1. */
  readonly ratio: Spread;
  /** The server's CPU time per answered request, µs (mocks and the ceiling; not bare json-server). */
  readonly cpuPerRequest?: Spread;
  /**
   * A mock case's own ceiling (its recorded answer replayed by bare node:http), measured next to it: its
   * requests/s and CPU per request, the case's requests/s over the ceiling's (`ratio`), and the ceiling's CPU
   * per request over the case's (`cpuRatio`: the same "fraction of the ceiling", from what each server spent).
   */
  readonly ceiling?: {
    readonly requestsPerSecond: Spread;
    readonly ratio: Spread;
    readonly cpuPerRequest?: Spread;
    readonly cpuRatio?: Spread;
  };
  /** Counts toward the ceiling target. */
  readonly ceilingTarget: boolean;
  /** Answers with another status than expected, and connection errors/timeouts, over all rounds. */
  readonly unexpected: number;
  readonly errors: number;
  readonly runs: readonly LoadResult[];
}

export interface ScalePoint {
  readonly connections: number;
  readonly bare: LoadResult;
  readonly bearer: LoadResult;
  readonly ratio: number;
}

export interface MockBenchReport {
  readonly method: string;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly rounds: number;
  readonly cases: readonly CaseReport[];
  readonly scaling: readonly ScalePoint[];
  /** 1-minute load average before and after: how busy the shared machine was. */
  readonly loadAverage: { readonly before: number; readonly after: number };
  readonly target: { readonly ratio: number; readonly met: boolean; readonly worst: string };
  /**
   * Each authenticated scheme, the 401 and the 400 case at `ratio` × their own ceiling or better; Apikey's
   * requests/s over Bearer RS256's in the same round (`apikeyOverBearer`) at 1 or better.
   */
  readonly ceilingTarget?: {
    readonly ratio: number;
    readonly met: boolean;
    readonly worst: string;
    readonly apikeyOverBearer: Spread;
    readonly apikeyMet: boolean;
    /**
     * The same from CPU per request (what each server spent, less swayed by other work on the machine): the
     * lowest ceiling-CPU-over-case ratio among the target cases, and Apikey's CPU per request over Bearer
     * RS256's (≤ 1: costs no more).
     */
    readonly cpu?: {
      readonly met: boolean;
      readonly worst: string;
      readonly worstRatio: number;
      readonly apikeyCostOverBearer: number;
      readonly apikeyMet: boolean;
    };
  };
  /**
   * Each authenticated scheme and the 401 path as × its own ceiling, side by side: missed when one is more
   * than 15 % behind the fastest (bench/scheme-spread.ts). Absent from reports made before it existed.
   */
  readonly schemeSpread?: SchemeSpread;
  /** Process id of each mock (by name): `--cpu-prof` names its profile file after it. */
  readonly mockPids: Readonly<Record<string, number>>;
}

export const TARGET_RATIO = 0.8;
/** Each authenticated scheme, the 401 and the 400 path: ≥ 70% of a bare node:http server answering the same bytes. */
export const CEILING_TARGET_RATIO = 0.7;

export async function mockCases(): Promise<MockCase[]> {
  const auth = await authorizationValues();
  const at = (
    id: string,
    label: string,
    server: ServerName,
    headers: Record<string, string>,
    status: number,
    authenticated = false,
    errorPath = false,
  ): MockCase => ({
    id,
    label,
    server,
    headers,
    expectedStatus: status,
    authenticated,
    errorPath,
  });
  return [
    at('ceiling', 'ceiling: plain node:http, fixed body', 'ceiling', {}, 200),
    at('bare', 'bare json-server (NODE_ENV=production)', 'bare', {}, 200),
    at('bare-dev', 'bare json-server (as `npx json-server`)', 'bareDev', {}, 200),
    at('public', 'mock, public (default policy)', 'public', {}, 200),
    at('bearer-rs256', 'mock, Bearer RS256', 'auth', { authorization: auth.bearerRs256 }, 200, true),
    at('bearer-es256', 'mock, Bearer ES256', 'auth', { authorization: auth.bearerEs256 }, 200, true),
    at('basic', 'mock, Basic', 'auth', { authorization: auth.basic }, 200, true),
    at('apikey', 'mock, Apikey', 'auth', { authorization: auth.apikey }, 200, true),
    at('401', 'mock, 401 (no credentials)', 'unauthenticated', {}, 401, false, true),
    at(
      '400',
      'mock, 400 (malformed credentials)',
      'malformed',
      { authorization: MALFORMED_AUTHORIZATION },
      400,
      false,
      true,
    ),
    at('429', 'mock, 429 (over the limit)', 'limited', {}, 429),
  ];
}

interface Servers {
  readonly urls: Record<ServerName, string>;
  /** Process ids of the mocks, for their CPU profiles (CPU.<date>.<time>.<pid>.…cpuprofile). */
  readonly mockPids: Record<MockName, number>;
  readonly ceiling: CeilingProcess;
  /** CPU time so far of the servers that answer probes (the mocks and the ceiling), µs. */
  readonly cpu: Partial<Record<ServerName, () => Promise<number>>>;
  stop(): Promise<void>;
}

async function startServers(cpuProfDir: string | undefined): Promise<Servers> {
  const configs = mockConfigs();
  const started: { stop(): Promise<unknown> }[] = [];
  try {
    const ceiling = await startCeiling();
    started.push(ceiling);
    const bare: JsonServerProcess = await startJsonServer({ production: true });
    started.push(bare);
    const bareDev: JsonServerProcess = await startJsonServer({ production: false });
    started.push(bareDev);
    // One process per mock name, so a CPU profile (--cpu-prof) shows one path: the 401 and the 400 cases have
    // mocks of their own with the same configuration as the authenticated cases'.
    const mocks = {} as Record<MockName, MockProcess>;
    for (const name of MOCK_NAMES) {
      mocks[name] = await startMockProcess({ config: configs[name], cpuProfDir });
      started.push(mocks[name]);
    }
    const urls = { ceiling: ceiling.url, bare: bare.url, bareDev: bareDev.url } as Record<ServerName, string>;
    const mockPids = {} as Record<MockName, number>;
    const cpu: Partial<Record<ServerName, () => Promise<number>>> = { ceiling: () => ceiling.cpu() };
    for (const name of MOCK_NAMES) {
      urls[name] = mocks[name].url;
      mockPids[name] = mocks[name].pid;
      cpu[name] = () => mocks[name].cpu();
    }
    return {
      urls,
      mockPids,
      ceiling,
      cpu,
      async stop() {
        await Promise.all(started.map((s) => s.stop()));
      },
    };
  } catch (error) {
    await Promise.all(started.map((s) => s.stop()));
    throw error;
  }
}

function push(map: Map<string, number[]>, id: string, value: number): void {
  const list = map.get(id);
  if (list === undefined) map.set(id, [value]);
  else list.push(value);
}

function isMock(server: ServerName): server is MockName {
  return (MOCK_NAMES as readonly string[]).includes(server);
}

export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return { median, min: sorted[0] ?? 0, max: sorted[sorted.length - 1] ?? 0 };
}

function unexpectedOf(run: LoadResult, expected: number): number {
  let n = run.errors + run.timeouts;
  for (const [status, count] of Object.entries(run.statuses)) if (Number(status) !== expected) n += count;
  return n;
}

export async function benchMock(options: MockBenchOptions): Promise<MockBenchReport> {
  const cases = await mockCases();
  const before = loadavg()[0] ?? 0;
  const servers = await startServers(options.cpuProfDir);
  const runs = new Map<string, LoadResult[]>(cases.map((c) => [c.id, []]));
  const ratios = new Map<string, number[]>(cases.map((c) => [c.id, []]));
  const ceilingRuns = new Map<string, number[]>();
  const ceilingRatios = new Map<string, number[]>();
  const cpuRuns = new Map<string, number[]>();
  const ceilingCpuRuns = new Map<string, number[]>();
  const ceilingCpuRatios = new Map<string, number[]>();
  const apikeyOverBearer: number[] = [];
  const scaling: ScalePoint[] = [];
  const mockPids = servers.mockPids;
  try {
    // The 429 mock answers its first request 200: spend it now so every measured answer is a 429.
    await fetch(`${servers.urls.limited}/users`).then((r) => r.arrayBuffer());
    // Each mock case's answer, recorded once and handed to the ceiling to replay.
    const replayPaths = new Map<string, string>();
    for (const c of cases) {
      if (!isMock(c.server)) continue;
      const answer = await recordAnswer(servers.urls[c.server], '/users', c.headers);
      if (answer.status !== c.expectedStatus)
        throw new Error(`${c.label}: recorded a ${answer.status}, expected ${c.expectedStatus}`);
      replayPaths.set(c.id, await servers.ceiling.replay(c.id, answer));
      ceilingRuns.set(c.id, []);
      ceilingRatios.set(c.id, []);
    }
    const measure = async (
      label: string,
      server: ServerName,
      path: string,
      c: MockCase,
      round: number,
    ): Promise<{ result: LoadResult; cpuPerRequest: number | undefined }> => {
      const load = (seconds: number) =>
        runLoad({
          url: servers.urls[server],
          path,
          headers: c.headers,
          connections: options.connections,
          durationSeconds: seconds,
          warmupSeconds: 0,
        });
      if (options.warmupSeconds > 0) await load(options.warmupSeconds);
      // The server's CPU time over the measured part only (the warm-up's is left out).
      const cpu = servers.cpu[server];
      const before = await cpu?.();
      const result = await load(options.durationSeconds);
      const after = await cpu?.();
      const cpuPerRequest =
        before === undefined || after === undefined || result.requests === 0
          ? undefined
          : (after - before) / result.requests;
      options.log(
        `  round ${round + 1}/${options.rounds}  ${label.padEnd(40)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${result.latencyP50} ms  p99 ${result.latencyP99} ms${cpuPerRequest === undefined ? '' : `  ${cpuPerRequest.toFixed(1)} µs CPU/req`}  ${JSON.stringify(result.statuses)}${result.errors ? `  errors ${result.errors}` : ''}`,
      );
      return { result, cpuPerRequest };
    };
    for (let round = 0; round < options.rounds; round++) {
      const order = cases.map((_, i) => cases[(i + round) % cases.length] as MockCase);
      const rps = new Map<string, number>();
      for (const c of order) {
        const replayPath = replayPaths.get(c.id);
        type Measured = Awaited<ReturnType<typeof measure>>;
        const ceilingOf = async (): Promise<Measured | undefined> =>
          replayPath === undefined
            ? undefined
            : measure(`  ceiling of ${c.id}`, 'ceiling', replayPath, c, round);
        const ceilingBefore = round % 2 === 1 ? await ceilingOf() : undefined;
        const { result, cpuPerRequest } = await measure(c.label, c.server, '/users', c, round);
        const ceiling = round % 2 === 1 ? ceilingBefore : await ceilingOf();
        runs.get(c.id)?.push(result);
        rps.set(c.id, result.requestsPerSecond);
        if (cpuPerRequest !== undefined) push(cpuRuns, c.id, cpuPerRequest);
        if (ceiling !== undefined) {
          const ceilingRps = ceiling.result.requestsPerSecond;
          ceilingRuns.get(c.id)?.push(ceilingRps);
          const ratio = ceilingRps > 0 ? result.requestsPerSecond / ceilingRps : 0;
          ceilingRatios.get(c.id)?.push(ratio);
          let cpuText = '';
          if (ceiling.cpuPerRequest !== undefined && cpuPerRequest !== undefined && cpuPerRequest > 0) {
            push(ceilingCpuRuns, c.id, ceiling.cpuPerRequest);
            const cpuRatio = ceiling.cpuPerRequest / cpuPerRequest;
            push(ceilingCpuRatios, c.id, cpuRatio);
            cpuText = `; by CPU per request ${cpuRatio.toFixed(2)}`;
          }
          options.log(
            `  round ${round + 1}/${options.rounds}  ${c.id} × its ceiling: ${ratio.toFixed(2)}${cpuText}`,
          );
        }
      }
      const bare = rps.get('bare') ?? 0;
      for (const c of cases) ratios.get(c.id)?.push(bare > 0 ? (rps.get(c.id) ?? 0) / bare : 0);
      const bearerRps = rps.get('bearer-rs256') ?? 0;
      apikeyOverBearer.push(bearerRps > 0 ? (rps.get('apikey') ?? 0) / bearerRps : 0);
    }

    const bearer = cases.find((c) => c.id === 'bearer-rs256') as MockCase;
    for (const connections of options.scaleConnections) {
      const load = (url: string, headers: Record<string, string>) =>
        runLoad({
          url,
          path: '/users',
          headers,
          connections,
          durationSeconds: options.durationSeconds,
          warmupSeconds: options.warmupSeconds,
        });
      const bare = await load(servers.urls.bare, {});
      const mocked = await load(servers.urls.auth, bearer.headers);
      const ratio = bare.requestsPerSecond > 0 ? mocked.requestsPerSecond / bare.requestsPerSecond : 0;
      scaling.push({ connections, bare, bearer: mocked, ratio });
      options.log(
        `  ${String(connections).padStart(3)} connections: bare ${bare.requestsPerSecond.toFixed(0)} req/s (p99 ${bare.latencyP99} ms), Bearer RS256 ${mocked.requestsPerSecond.toFixed(0)} req/s (p99 ${mocked.latencyP99} ms), ${ratio.toFixed(2)}×`,
      );
    }
  } finally {
    await servers.stop();
  }

  const reports: CaseReport[] = cases.map((c) => {
    const list = runs.get(c.id) ?? [];
    const ceilingList = ceilingRuns.get(c.id);
    return {
      id: c.id,
      label: c.label,
      expectedStatus: c.expectedStatus,
      authenticated: c.authenticated,
      requestsPerSecond: spread(list.map((r) => r.requestsPerSecond)),
      latencyP50: spread(list.map((r) => r.latencyP50)),
      latencyP99: spread(list.map((r) => r.latencyP99)),
      ratio: spread(ratios.get(c.id) ?? []),
      ...(cpuRuns.has(c.id) ? { cpuPerRequest: spread(cpuRuns.get(c.id) ?? []) } : {}),
      ...(ceilingList === undefined
        ? {}
        : {
            ceiling: {
              requestsPerSecond: spread(ceilingList),
              ratio: spread(ceilingRatios.get(c.id) ?? []),
              ...(ceilingCpuRatios.has(c.id)
                ? {
                    cpuPerRequest: spread(ceilingCpuRuns.get(c.id) ?? []),
                    cpuRatio: spread(ceilingCpuRatios.get(c.id) ?? []),
                  }
                : {}),
            },
          }),
      ceilingTarget: c.authenticated || c.errorPath,
      unexpected: list.reduce((n, r) => n + unexpectedOf(r, c.expectedStatus), 0),
      errors: list.reduce((n, r) => n + r.errors + r.timeouts, 0),
      runs: list,
    };
  });
  const authenticated = reports.filter((r) => r.authenticated);
  const worst = authenticated.reduce((a, b) => (b.ratio.median < a.ratio.median ? b : a));
  const againstCeiling = reports.filter((r) => r.ceilingTarget);
  const ceilingOf = (r: CaseReport): number => r.ceiling?.ratio.median ?? 0;
  const worstCeiling = againstCeiling.reduce((a, b) => (ceilingOf(b) < ceilingOf(a) ? b : a));
  const apikey = spread(apikeyOverBearer);
  const cpuRatioOf = (r: CaseReport): number => r.ceiling?.cpuRatio?.median ?? 0;
  const worstCpu = againstCeiling.reduce((a, b) => (cpuRatioOf(b) < cpuRatioOf(a) ? b : a));
  const costOf = (id: string): number | undefined => reports.find((r) => r.id === id)?.cpuPerRequest?.median;
  const apikeyCost = costOf('apikey');
  const bearerCost = costOf('bearer-rs256');
  const cpu =
    cpuRatioOf(worstCpu) > 0 && apikeyCost !== undefined && bearerCost !== undefined && bearerCost > 0
      ? {
          met: cpuRatioOf(worstCpu) >= CEILING_TARGET_RATIO,
          worst: worstCpu.id,
          worstRatio: cpuRatioOf(worstCpu),
          apikeyCostOverBearer: apikeyCost / bearerCost,
          apikeyMet: apikeyCost <= bearerCost,
        }
      : undefined;
  // Round by round (each list holds one figure per round, in round order).
  const spreadReadings = SPREAD_CASES.flatMap((id) => {
    const c = cases.find((x) => x.id === id);
    const ratios = ceilingRatios.get(id);
    return c === undefined || ratios === undefined || ratios.length === 0
      ? []
      : [{ id, label: c.label, ratios, cpuRatios: ceilingCpuRatios.get(id) }];
  });
  return {
    method:
      "autocannon in the bench process; each server in its own child process (json-server CLI on a temp copy of fixtures/db.json; the mock via bench/mock-child.ts); loopback; cases in rounds with rotated order, ratio against bare json-server of the same round; each mock case's ceiling is its recorded answer replayed by bare node:http, measured next to it",
    connections: options.connections,
    durationSeconds: options.durationSeconds,
    warmupSeconds: options.warmupSeconds,
    rounds: options.rounds,
    cases: reports,
    scaling,
    loadAverage: { before, after: loadavg()[0] ?? 0 },
    target: { ratio: TARGET_RATIO, met: worst.ratio.median >= TARGET_RATIO, worst: worst.id },
    ceilingTarget: {
      ratio: CEILING_TARGET_RATIO,
      met: ceilingOf(worstCeiling) >= CEILING_TARGET_RATIO,
      worst: worstCeiling.id,
      apikeyOverBearer: apikey,
      apikeyMet: apikey.median >= 1,
      ...(cpu === undefined ? {} : { cpu }),
    },
    ...(spreadReadings.length === 0 ? {} : { schemeSpread: schemeSpread(spreadReadings) }),
    mockPids,
  };
}
