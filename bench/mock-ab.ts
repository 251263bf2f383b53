/**
 * Two (or more) checkouts' mocks side by side in one run, on the paths of the schemes check (issue #72): each
 * authenticated scheme and the 401 path, `GET /users` on the bench's "auth" policy, against bare node:http
 * answering the same bytes (bench/ceiling-child.ts) measured in the same round.
 *
 *   npx tsx bench/mock-ab.ts [options] <label>=<checkout> <label>=<checkout> …
 *     --rounds <n>        rounds, order of paths and of servers rotated each round (default 3)
 *     --duration <s>      seconds measured per path and server (default 4)
 *     --warmup <s>        seconds of the same load before each (default 1)
 *     --connections <n>   (default 16)
 *     --cpu-prof <dir>    profile each checkout's mock; per path, its frames' self time per request
 *     --top <n>           frames shown per path (default 12)
 *     --out <file>        also write the report (markdown) there
 *
 * A checkout is a directory with this repository's layout and its dependencies (node_modules): e.g. an older
 * commit unpacked with `git archive <commit> | tar -x -C <dir>` and node_modules linked in. Each runs as ONE
 * mock process serving every path, so a path's profile windows come from the same process as the others'.
 * Exit 1 when a checkout misses the schemes check (bench/scheme-spread.ts), 2 on a usage error.
 */

import { readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { positiveNumber } from './args.ts';
import { startCeiling } from './ceiling-process.ts';
import { readProfile } from './cpu-profile.ts';
import { runLoad } from './load.ts';
import { type MockCase, mockCases, type Spread, spread } from './mock-bench.ts';
import { type MockProcess, startMockProcess } from './mock-process.ts';
import {
  framesBeyond,
  framesPerRequest,
  monotonicUs,
  type ProfileWindow,
  topFrames,
} from './profile-windows.ts';
import { recordAnswer } from './recorded-answer.ts';
import {
  type SchemeSpread,
  SPREAD_CASES,
  schemeSpread,
  schemeSpreadLine,
  schemeSpreadTable,
} from './scheme-spread.ts';
import { mockConfigs } from './setups.ts';

interface Checkout {
  readonly label: string;
  readonly root: string;
}

interface Measured {
  readonly rps: number;
  readonly cpuPerRequest: number;
}

const CEILING = 'bare node:http';

const formatSpread = (s: Spread, digits: number): string =>
  s.min === s.max
    ? s.median.toFixed(digits)
    : `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;

function checkoutsOf(positionals: readonly string[]): Checkout[] {
  if (positionals.length === 0) throw new TypeError('expected at least one <label>=<checkout>');
  return positionals.map((arg) => {
    const eq = arg.indexOf('=');
    if (eq <= 0) throw new TypeError(`expected <label>=<checkout>, got "${arg}"`);
    return { label: arg.slice(0, eq), root: resolve(arg.slice(eq + 1)) };
  });
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: {
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      'cpu-prof': { type: 'string' },
      top: { type: 'string' },
      out: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const checkouts = checkoutsOf(positionals);
  const rounds = Math.round(positiveNumber('rounds', values.rounds, 3));
  const duration = positiveNumber('duration', values.duration, 4);
  const warmup = values.warmup === '0' ? 0 : positiveNumber('warmup', values.warmup, 1);
  const connections = Math.round(positiveNumber('connections', values.connections, 16));
  const top = Math.round(positiveNumber('top', values.top, 12));
  const profDir = values['cpu-prof'] === undefined ? undefined : resolve(values['cpu-prof']);
  const log = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };

  const cases = (await mockCases()).filter((c) => SPREAD_CASES.includes(c.id));
  const ceiling = await startCeiling();
  const mocks = new Map<string, MockProcess>();
  const windows = new Map<string, ProfileWindow[]>(checkouts.map((c) => [c.label, []]));
  // Per path: per server (a checkout's label, or CEILING), one figure per round.
  const figures = new Map<string, Map<string, Measured[]>>(cases.map((c) => [c.id, new Map()]));
  try {
    for (const checkout of checkouts) {
      mocks.set(
        checkout.label,
        await startMockProcess({
          root: checkout.root,
          config: mockConfigs().auth,
          ...(profDir === undefined ? {} : { cpuProfDir: join(profDir, checkout.label) }),
        }),
      );
    }
    // Every checkout must answer each path alike (same status and body): the ceiling replays the first's.
    const replays = new Map<string, string>();
    for (const c of cases) {
      const answers = await Promise.all(
        checkouts.map((k) => recordAnswer((mocks.get(k.label) as MockProcess).url, '/users', c.headers)),
      );
      answers.forEach((answer, i) => {
        const first = answers[0] as (typeof answers)[number];
        if (answer.status !== c.expectedStatus || answer.body !== first.body)
          throw new Error(`${c.label}: ${checkouts[i]?.label} answered ${answer.status}, not as expected`);
      });
      replays.set(c.id, await ceiling.replay(c.id, answers[0] as (typeof answers)[number]));
    }
    const servers = [CEILING, ...checkouts.map((k) => k.label)];
    const measure = async (c: MockCase, server: string): Promise<Measured> => {
      const mock = mocks.get(server);
      const url = mock?.url ?? ceiling.url;
      const path = mock === undefined ? (replays.get(c.id) as string) : '/users';
      const cpu = () => (mock === undefined ? ceiling.cpu() : mock.cpu());
      const load = (seconds: number) =>
        runLoad({ url, path, headers: c.headers, connections, durationSeconds: seconds, warmupSeconds: 0 });
      if (warmup > 0) await load(warmup);
      const before = await cpu();
      const fromUs = monotonicUs();
      const result = await load(duration);
      const toUs = monotonicUs();
      const after = await cpu();
      windows.get(server)?.push({ kind: c.id, fromUs, toUs, requests: result.requests });
      const unexpected = result.requests - (result.statuses[String(c.expectedStatus)] ?? 0);
      if (unexpected > 0 || result.errors > 0)
        throw new Error(
          `${c.label} on ${server}: ${JSON.stringify(result.statuses)}, ${result.errors} errors`,
        );
      return {
        rps: result.requestsPerSecond,
        cpuPerRequest: (after - before) / Math.max(1, result.requests),
      };
    };
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < cases.length; i++) {
        const c = cases[(i + round) % cases.length] as MockCase;
        for (let j = 0; j < servers.length; j++) {
          const server = servers[(j + round) % servers.length] as string;
          const m = await measure(c, server);
          const byServer = figures.get(c.id) as Map<string, Measured[]>;
          byServer.set(server, [...(byServer.get(server) ?? []), m]);
          log(
            `round ${round + 1}/${rounds}  ${c.id.padEnd(13)} ${server.padEnd(16)} ${m.rps.toFixed(0).padStart(7)} req/s  ${m.cpuPerRequest.toFixed(1)} µs CPU/req`,
          );
        }
      }
    }
  } finally {
    await Promise.all([...mocks.values()].map((m) => m.stop()));
    await ceiling.stop();
  }

  // Each checkout's path as a fraction of the ceiling measured in the same round.
  const of = (id: string, server: string): Measured[] => figures.get(id)?.get(server) ?? [];
  const perRound = (id: string, server: string, pick: (m: Measured, ceiling: Measured) => number) =>
    of(id, server).map((m, round) => pick(m, of(id, CEILING)[round] as Measured));
  const ratios = (id: string, server: string, pick: (m: Measured, ceiling: Measured) => number) =>
    spread(perRound(id, server, pick));
  const spreads = new Map<string, SchemeSpread>();
  const lines: string[] = [
    `# The mock's schemes side by side — \`npx tsx bench/mock-ab.ts ${process.argv.slice(2).join(' ')}\``,
    '',
    `${new Date().toISOString()}, Node ${process.version}; ${rounds} rounds, order of paths and servers rotated; ${duration} s per path and server after ${warmup} s warm-up, ${connections} connections. Median over rounds (min–max). "× node:http": req/s over bare node:http's answering the same bytes in the same round; by CPU: node:http's CPU per request over the mock's.`,
    '',
    `| path | ${CEILING} req/s | ${checkouts.map((k) => `${k.label} req/s | × node:http | µs CPU/req | × node:http by CPU`).join(' | ')} |`,
    `| --- | ---: | ${checkouts.map(() => '---: | ---: | ---: | ---:').join(' | ')} |`,
  ];
  for (const c of cases) {
    const cells = checkouts.map((k) => {
      const rps = spread(of(c.id, k.label).map((m) => m.rps));
      const cpu = spread(of(c.id, k.label).map((m) => m.cpuPerRequest));
      return [
        formatSpread(rps, 0),
        formatSpread(
          ratios(c.id, k.label, (m, top) => m.rps / top.rps),
          2,
        ),
        formatSpread(cpu, 1),
        formatSpread(
          ratios(c.id, k.label, (m, top) => top.cpuPerRequest / m.cpuPerRequest),
          2,
        ),
      ].join(' | ');
    });
    const ceilingRps = spread(of(c.id, CEILING).map((m) => m.rps));
    lines.push(`| ${c.label} | ${formatSpread(ceilingRps, 0)} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  for (const k of checkouts) {
    const result = schemeSpread(
      cases.map((c) => ({
        id: c.id,
        label: c.label,
        ratios: perRound(c.id, k.label, (m, top) => m.rps / top.rps),
        cpuRatios: perRound(c.id, k.label, (m, top) => top.cpuPerRequest / m.cpuPerRequest),
      })),
    );
    spreads.set(k.label, result);
    lines.push(
      `**${k.label}** (${k.root}): ${schemeSpreadLine(result).replace(/^³ /, '')}`,
      '',
      ...schemeSpreadTable(result),
      '',
    );
  }
  if (profDir !== undefined) lines.push(...profileSection(checkouts, mocks, windows, profDir, top));
  const report = `${lines.join('\n').trimEnd()}\n`;
  log(`\n${report}`);
  if (values.out !== undefined) writeFileSync(values.out, report);
  return [...spreads.values()].every((s) => s.met) ? 0 : 1;
}

/** Per checkout and path, the frames with the most self time per request, and what Apikey and 401 pay beyond Bearer. */
function profileSection(
  checkouts: readonly Checkout[],
  mocks: ReadonlyMap<string, MockProcess>,
  windows: ReadonlyMap<string, readonly ProfileWindow[]>,
  profDir: string,
  top: number,
): string[] {
  const out: string[] = [
    '## Where each path spends its time — self time per request (µs), its own windows of the profile',
    '',
  ];
  for (const k of checkouts) {
    const mock = mocks.get(k.label) as MockProcess;
    const file = readProfileOf(join(profDir, k.label), mock.pid);
    if (file === undefined) continue;
    const byPath = framesPerRequest(readProfile(file), windows.get(k.label) ?? []);
    out.push(`### ${k.label} — ${file}`, '');
    for (const [path, frames] of byPath) {
      let own = 0;
      for (const [name, us] of frames) if (name.includes(' mock/')) own += us;
      out.push(
        `**${path}** (the mock's own code, mock/*: ${own.toFixed(2)}): ${topFrames(frames, top)
          .map(([name, us]) => `${name} ${us.toFixed(2)}`)
          .join(' · ')}`,
        '',
      );
    }
    const bearer = byPath.get('bearer-rs256');
    for (const path of ['apikey', '401']) {
      const frames = byPath.get(path);
      if (bearer === undefined || frames === undefined) continue;
      out.push(
        `**${path} − bearer-rs256**: ${framesBeyond(frames, bearer, top)
          .map(([name, us]) => `${name} ${us >= 0 ? '+' : ''}${us.toFixed(2)}`)
          .join(' · ')}`,
        '',
      );
    }
  }
  return out;
}

/** The main thread's profile of process `pid` (CPU.<date>.<time>.<pid>.0.<n>.cpuprofile). */
function readProfileOf(dir: string, pid: number): string | undefined {
  const file = readdirSync(dir).find((f) => f.includes(`.${pid}.0.`));
  return file === undefined ? undefined : join(dir, file);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`mock-ab: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof TypeError ? 2 : 1;
  },
);
