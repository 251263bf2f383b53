/**
 * The cost of politeness against real limiters (#28; docs/performance.md "Politeness against real limiters"):
 * the default run — the full catalogue, fuzzing included, the default fuzz budget sized to the pace — against
 * the mock counting as nginx limit_req, @fastify/rate-limit, slowapi and express-rate-limit count (60 requests
 * per 10 s: bench/limiters.ts), and against a real nginx limit_req (6 r/s, burst 10) in front of the mock; each
 * with the exact profile and the minimal one (limit and window only). Per run: requests, limited answers met,
 * time waiting, wall time (spawn → exit of `playwright test`, as a user runs it), and its ratio to the least
 * time the limit allows for what was sent (requests ÷ the limit's rate; per route for slowapi: the busiest
 * route's requests). Targets: ≤ 1.3× for the exact profile, ≤ 2× for the minimal one; 0 failures, 0 rules
 * skipped for time.
 *
 * The mock runs in a child process (its own event loop), the suite in another. One run at the real scale
 * takes about 5 minutes: the ten runs, ≈ 50 minutes. `--polite-limiters`, `--polite-profiles` choose;
 * `--polite-scale 10` runs them ten times shorter (60 per 1 s), a rehearsal of the shape.
 */

import { pacedWorkerArgs } from '../cli/paced-workers.ts';
import { ratePolicyOf } from '../specs/profile/rate-policy.ts';
import type { Profile } from '../specs/profile/types.ts';
import { UNROUTED_COUNTED } from '../specs/run/coordinator.ts';
import { longestAtPace, type Politeness } from '../specs/run/politeness.ts';
import { counterLabel } from '../specs/run/scopes.ts';
import { estimateRun, plannedFuzzCases } from '../specs/setup/estimate.ts';
import { COMPOSED, type ComposedName, composedTarget } from './composed-limiters.ts';
import { startFastifyLimiter } from './fastify-limiter.ts';
import {
  LIMITER_LABELS,
  LIMITERS,
  type LimiterName,
  leastTimeMs,
  limiterLimit,
  limiterProfile,
  limiterSettings,
  type ProfileKind,
  profileDeclaring,
  SKIPPED_FOR_TIME,
} from './limiters.ts';
import { startMockProcess } from './mock-process.ts';
import { NGINX_MISSING, startNginx } from './nginx-process.ts';
import { UNREACHABLE_RATE_LIMIT } from './setups.ts';
import { runSuiteProcess, type SuiteProcessRun } from './suite-process.ts';
import { busiest, journalCounters, withJournal } from './target-counters.ts';

/**
 * The emulated limiters, `nginx-real` (Debian's nginx in front of the mock), and the composed targets: the real
 * @fastify/rate-limit in front of the mock, alone or beside the mock's own limit (bench/composed-limiters.ts).
 */
export type PoliteTarget = LimiterName | 'nginx-real' | ComposedName;
export const POLITE_TARGETS: readonly PoliteTarget[] = [...LIMITERS, 'nginx-real', ...COMPOSED];
const isComposed = (t: PoliteTarget): t is ComposedName => (COMPOSED as readonly string[]).includes(t);
// Nothing declared (`none`): no target in issue #38, reported beside the others.
export const POLITE_TARGET_RATIO: Readonly<Record<ProfileKind, number | undefined>> = {
  exact: 1.3,
  minimal: 2,
  none: undefined,
};
/** A skip for time, of any of its kinds. */

export interface PoliteRun {
  readonly target: PoliteTarget;
  readonly profile: ProfileKind;
  readonly scale: number;
  readonly exitCode: number | null;
  readonly wallMs: number;
  readonly requests: number;
  readonly limitedAnswers: number;
  readonly waitedMs: number;
  /** The least time the limit allows for what was sent. */
  readonly leastMs: number;
  /** wallMs ÷ leastMs. */
  readonly ratio: number;
  readonly failed: readonly string[];
  readonly skippedForTime: readonly string[];
  /** The politeness section's sentence about the key, and whether the run learned the target counts unrouted requests. */
  readonly key: string;
  /** What the run said before it started (specs/setup/estimate.ts): its expected wall time, ms. */
  readonly estimatedMs?: number;
  /** With a key not declared, the estimate is a range (specs/setup/estimate.ts fromSeconds): its lower end, ms. */
  readonly estimatedFromMs?: number;
  /**
   * What the run said once it saw the target keep a declared limit lower than declared (specs/setup/set-up.ts
   * reviseEstimate), at its last such line: ms.
   */
  readonly revisedMs?: number;
  /** When the run first printed it, ms after spawn. */
  readonly revisedAtMs?: number;
  /**
   * The run's paced counter that took longest at its pace (requests over pace): the one that decides the wall
   * time, as the run counted it (`requests without a credential (per address)`, 113 requests at 1.8/s).
   */
  readonly deciding?: { readonly counter: string; readonly requests: number; readonly pacePerSecond: number };
}

export interface PoliteBenchReport {
  readonly scale: number;
  readonly targets: Readonly<Record<ProfileKind, number | undefined>>;
  readonly runs: readonly PoliteRun[];
}

/** A composed target: the mock with its own limit, the real plugin in front of it. */
async function runComposed(
  target: ComposedName,
  kind: ProfileKind,
  scale: number,
  fuzzCases?: number,
  args?: readonly string[],
): Promise<PoliteRun> {
  const t = composedTarget(target, scale);
  const mock = await startMockProcess({ config: withJournal({ rateLimit: t.mock }) });
  const front =
    t.front === undefined
      ? undefined
      : await startFastifyLimiter({ ...t.front, upstream: mock.url }).catch(async (e: unknown) => {
          await mock.stop();
          throw e;
        });
  try {
    const profile = profileDeclaring(
      kind === 'exact' ? t.exact : kind === 'minimal' ? t.minimal : undefined,
      fuzzCases === undefined ? {} : { fuzzCases },
    );
    const { run, politeness, estimated } = await runAsTheCli(
      `${target} ${kind}`,
      front?.url ?? mock.url,
      profile,
      fuzzCases,
      args,
    );
    const seen = {
      front: front?.counted() ?? 0,
      frontBusiest: front?.busiest() ?? 0,
      mock: await journalCounters(mock.url),
    };
    return resultOf(target, kind, scale, run, t.least(politeness, seen), estimated);
  } finally {
    await front?.stop();
    await mock.stop();
  }
}

/**
 * What the CLI would do with this profile, from its one estimate (specs/setup/estimate.ts): the workers it gives a paced
 * run (cli/paced-workers.ts), as a user of `gatecheck` gets them, and the wall time it says before the run, ms.
 */
function cliPlan(profile: Profile, fuzzCases: number | undefined): { args: string[]; estimated?: Estimated } {
  const e = estimateRun(profile, plannedFuzzCases(profile, fuzzCases));
  if (e === undefined) return { args: pacedWorkerArgs(e, []) };
  // A range: from the reading the run starts from to the coarser one it may learn.
  const estimated =
    e.unroutedSeconds === undefined
      ? { ms: e.seconds * 1000, ...(e.fromSeconds === undefined ? {} : { fromMs: e.fromSeconds * 1000 }) }
      : { fromMs: e.seconds * 1000, ms: e.unroutedSeconds * 1000 };
  return { args: pacedWorkerArgs(e, []), estimated };
}

/** What the run said before it started: its wall time, or a range of it (ms). */
interface Estimated {
  readonly ms: number;
  readonly fromMs?: number;
  /** Revised during the run (a limit the target kept lower than declared). */
  readonly revisedMs?: number;
}

/** One run against `baseUrl` with the CLI's workers (or `args`), and the politeness figures it must report. */
async function runAsTheCli(
  label: string,
  baseUrl: string,
  profile: Profile,
  fuzzCases: number | undefined,
  args: readonly string[] | undefined,
): Promise<{ run: SuiteProcessRun; politeness: Politeness; estimated?: Estimated }> {
  const plan = cliPlan(profile, fuzzCases);
  const run = await runSuiteProcess({ baseUrl, profile, timeoutMs: 1_800_000, args: args ?? plan.args });
  if (run.politeness === undefined)
    throw new Error(`${label}: the run reported no politeness figures\n${run.tail}`);
  // The run's final reading (the median of the requests each limit let through): its last revision moved less than a tenth from it.
  const kept = (run.politeness.overDeclared ?? []).map((o) => ({
    index: Math.max(
      0,
      ratePolicyOf(profile).entries.findIndex((e) => e.label === o.limit),
    ),
    limit: o.requests,
  }));
  const revised =
    kept.length === 0 ? undefined : estimateRun(profile, plannedFuzzCases(profile, fuzzCases), kept);
  return {
    run,
    politeness: run.politeness,
    ...(plan.estimated === undefined
      ? {}
      : {
          estimated: {
            ...plan.estimated,
            ...(revised === undefined ? {} : { revisedMs: revised.seconds * 1000 }),
          },
        }),
  };
}

function resultOf(
  target: PoliteTarget,
  kind: ProfileKind,
  scale: number,
  run: SuiteProcessRun,
  leastMs: number,
  estimated: Estimated | undefined,
): PoliteRun {
  const p = run.politeness as Politeness;
  return {
    target,
    profile: kind,
    scale,
    exitCode: run.exitCode,
    wallMs: run.wallMs,
    requests: p.requests,
    limitedAnswers: p.limitedAnswers,
    waitedMs: p.waitedMs,
    leastMs,
    ratio: run.wallMs / leastMs,
    failed: run.rules.filter((r) => r.verdict === 'fail').map((r) => r.id),
    skippedForTime: run.rules
      .filter((r) => r.verdict === 'skip' && SKIPPED_FOR_TIME.test(r.reason ?? ''))
      .map((r) => r.id),
    key: `${p.key?.summary ?? ''}${(p.notes ?? []).some((n) => n.includes(UNROUTED_COUNTED)) ? '; the target counts requests to no declared route or method (learned)' : ''}`,
    ...(estimated === undefined ? {} : { estimatedMs: estimated.ms }),
    ...(estimated?.fromMs === undefined ? {} : { estimatedFromMs: estimated.fromMs }),
    ...(estimated?.revisedMs === undefined ? {} : { revisedMs: estimated.revisedMs }),
    ...(run.revisedAtMs === undefined ? {} : { revisedAtMs: run.revisedAtMs }),
    ...decidingOf(p),
  };
}

/** The paced counter with the most time's worth of requests at its pace (PoliteRun.deciding). */
function decidingOf(p: Politeness): Pick<PoliteRun, 'deciding'> {
  const [first] = longestAtPace(p.counters ?? []);
  return first?.pacePerSecond === undefined
    ? {}
    : {
        deciding: {
          counter: counterLabel(first.counter),
          requests: first.requests,
          pacePerSecond: first.pacePerSecond,
        },
      };
}

async function runOne(
  target: PoliteTarget,
  kind: ProfileKind,
  scale: number,
  fuzzCases?: number,
  args?: readonly string[],
): Promise<PoliteRun> {
  if (isComposed(target)) return runComposed(target, kind, scale, fuzzCases, args);
  const limiter: LimiterName = target === 'nginx-real' ? 'nginx' : target;
  const mock = await startMockProcess({
    config: withJournal({
      rateLimit: target === 'nginx-real' ? UNREACHABLE_RATE_LIMIT : limiterSettings(limiter, scale),
    }),
  });
  const { limit, windowSeconds } = limiterLimit(limiter, scale);
  const nginx =
    target === 'nginx-real'
      ? await startNginx({
          upstream: mock.url,
          limit: {
            rate: Math.round(limit / windowSeconds),
            burst: 10,
            nodelay: true,
            status: 429,
            key: 'address',
          },
        }).catch(async (e: unknown) => {
          await mock.stop();
          throw e;
        })
      : undefined;
  try {
    const profile = limiterProfile(limiter, kind, scale, fuzzCases === undefined ? {} : { fuzzCases });
    const {
      run,
      politeness: p,
      estimated,
    } = await runAsTheCli(`${target} ${kind}`, nginx?.url ?? mock.url, profile, fuzzCases, args);
    // The target's busiest counter: per route as the run counted them (slowapi: the run's routes are its
    // templates), per credential value as the mock counted them (its journal).
    const byRoute = new Map(
      (p.counters ?? [])
        .filter((c) => c.counter.startsWith('endpoint '))
        .map((c) => [c.counter, c.requests] as const),
    );
    const busiestCounter =
      limiter === 'credential' ? busiest(await journalCounters(mock.url)) : busiest(byRoute);
    const leastMs = leastTimeMs(limiter, scale, p.requests, busiestCounter);
    return resultOf(target, kind, scale, run, leastMs, estimated);
  } finally {
    await nginx?.stop();
    await mock.stop();
  }
}

export async function benchPolite(options: {
  readonly targets: readonly PoliteTarget[];
  readonly profiles: readonly ProfileKind[];
  readonly scale: number;
  readonly fuzzCases?: number;
  readonly log: (line: string) => void;
  /** `playwright test` arguments for every run instead of the CLI's workers (e.g. `--workers 2`, to compare). */
  readonly args?: readonly string[];
}): Promise<PoliteBenchReport> {
  const runs: PoliteRun[] = [];
  for (const target of options.targets) {
    if (target === 'nginx-real' && NGINX_MISSING) {
      options.log(`  ${target}: skipped — ${NGINX_MISSING}`);
      continue;
    }
    for (const kind of options.profiles) {
      const run = await runOne(target, kind, options.scale, options.fuzzCases, options.args);
      runs.push(run);
      const target_ = POLITE_TARGET_RATIO[kind];
      options.log(
        `  ${target} × ${kind}: ${run.requests} requests, ${run.limitedAnswers} limited, ${(run.waitedMs / 1000).toFixed(1)} s waiting, wall ${(run.wallMs / 1000).toFixed(1)} s, least ${(run.leastMs / 1000).toFixed(1)} s → ${run.ratio.toFixed(2)}× (target ${target_ === undefined ? 'none' : `≤ ${target_}×`}); estimated ${estimateText(run)}; failed: ${run.failed.join(', ') || 'none'}; skipped for time: ${run.skippedForTime.join(', ') || 'none'}; ${run.key}`,
      );
    }
  }
  return { scale: options.scale, targets: POLITE_TARGET_RATIO, runs };
}

/**
 * `280 s (+11 %)`: the estimate and its error against the measured wall time; a range (`100–257 s (in)`) is
 * off by the distance to its nearer end.
 */
function estimateText(run: PoliteRun): string {
  if (run.estimatedMs === undefined) return '—';
  const from = run.estimatedFromMs ?? run.estimatedMs;
  const nearer = run.wallMs < from ? from : run.wallMs > run.estimatedMs ? run.estimatedMs : undefined;
  const error =
    nearer === undefined
      ? 'in'
      : `${nearer >= run.wallMs ? '+' : ''}${Math.round(((nearer - run.wallMs) / run.wallMs) * 100)} %`;
  const range = from === run.estimatedMs ? '' : `${(from / 1000).toFixed(0)}–`;
  const revised =
    run.revisedMs === undefined
      ? ''
      : `; revised during the run${run.revisedAtMs === undefined ? '' : ` (first at ${(run.revisedAtMs / 1000).toFixed(0)} s)`} ${(run.revisedMs / 1000).toFixed(0)} s (${run.revisedMs >= run.wallMs ? '+' : ''}${Math.round(((run.revisedMs - run.wallMs) / run.wallMs) * 100)} %)`;
  return `${range}${(run.estimatedMs / 1000).toFixed(0)} s (${error})${revised}`;
}

const targetLabel = (target: PoliteTarget, scale: number): string =>
  target === 'nginx-real'
    ? `a real nginx limit_req (Debian nginx-light): ${6 * scale} r/s per address, burst 10 nodelay, 429, no header`
    : isComposed(target)
      ? composedTarget(target, scale).label
      : LIMITER_LABELS[target];

/** Markdown rows for bench.md. */
export function politeSection(report: PoliteBenchReport): string[] {
  const window = 10 / report.scale;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const present = [...new Set(report.runs.map((r) => r.target))];
  return [
    `### Politeness against real limiters — the default run, 60 requests per ${window} s`,
    '',
    '| limiter | profile | requests | limited answers | waiting | wall | least the limit allows | ratio | estimated (error) | failed | skipped for time |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |',
    ...report.runs.map(
      (r) =>
        `| ${r.target} | ${r.profile} | ${r.requests} | ${r.limitedAnswers} | ${seconds(r.waitedMs)} | ${seconds(r.wallMs)} | ${seconds(r.leastMs)} | **${r.ratio.toFixed(2)}×**${report.targets[r.profile] === undefined ? '' : ` (≤ ${report.targets[r.profile]})`} | ${estimateText(r)} | ${r.failed.length} | ${r.skippedForTime.length} |`,
    ),
    '',
    ...present.map((t) => `- ${t}: ${targetLabel(t, report.scale)}`),
    '',
    'What the politeness section said about the key:',
    '',
    ...report.runs.map((r) => `- ${r.target} × ${r.profile}: ${r.key}`),
    '',
    "The run's paced counter with the most time at its pace (what decides the wall):",
    '',
    ...report.runs.map(
      (r) =>
        `- ${r.target} × ${r.profile}: ${
          r.deciding === undefined
            ? 'none paced'
            : `${r.deciding.counter}, ${r.deciding.requests} requests at ${r.deciding.pacePerSecond.toFixed(1)}/s`
        }`,
    ),
    '',
  ];
}
