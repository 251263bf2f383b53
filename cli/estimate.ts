/**
 * How long a run will take, said before it starts (docs/cli.md "--max-duration"): with a declared rate limit
 * the run goes at the limit's pace, so its wall time is about the requests of its busiest counter over that
 * pace, plus the start-up and the rate-limit rules' window. `--max-duration` sizes the fuzz cases to a wall
 * time; below what the checks alone need, the run is refused (exit 2) before any request.
 *
 * The model (calibrated on the politeness bench, docs/performance.md): a run sends ≈ CHECKS requests for its
 * checks and the fuzz cases; per address (or a key not declared) every request counts; per route the busiest route (the protected
 * one) gets the fuzz cases and ≈ 13 % of the checks; per identity or credential the busiest counter is that
 * of the requests without a credential (per address, ≈ 12 % of the checks and 1.6 % of the fuzz cases), or, for a limit of authenticated
 * requests only, the busiest identity's (≈ 7 %). Where the deciding counter does not count every request, its
 * requests are spread over the checks and a worker waiting for a slot waits with the rest of its test: on the
 * configuration's two workers such a run took ≈ 1.9 × the paced time (per credential at 20 and 60 per 10 s,
 * DRF-like); on the paced run's workers (cli/paced-workers.ts) the waits overlap, ≈ SERIAL_FACTOR ×.
 */

import { DEFAULT_FUZZ_CASES } from '../shared/env.ts';
import { affordableFuzzCases } from '../specs/fuzz/engine/settings.ts';
import { entryApplies, type RateEntry, ratePolicyOf } from '../specs/profile/rate-policy.ts';
import type { Profile } from '../specs/profile/types.ts';
import { paceForLimit } from '../specs/run/pacer.ts';
import { UNDECLARED_KEYS } from '../specs/run/scopes.ts';

/**
 * Requests a run sends besides its planned fuzz cases: `GATECHECK_BUDGET=0 npx playwright test` sent 929 against
 * the bundled mock; the politeness bench's runs 919–967 beyond their planned cases (#38 sixth pass). It was 440
 * (1,281 − 858 fuzz cases, an earlier run against nginx): the time per address came out 27–46 % short.
 */
const CHECKS = 930;
/** The busiest route's requests of the checks (the protected endpoint): ≈ 123, measured as 28 % of 440. */
const ROUTE_SHARE = 0.133;
/**
 * The requests sent without a credential (one counter per address, blank Authorization fields included):
 * ANONYMOUS_SHARE of the checks' requests and ANONYMOUS_FUZZ_SHARE of the fuzz cases. Measured by the run's own
 * counter (`npm run bench -- --only polite`, its deciding counter, #38 sixth pass): 108 requests with no fuzz
 * case planned and 146 with 2,400 at 20 per 10 s; 119 with 858 and 146 with 2,400 at 60 per 10 s — 108 + 1.6 %
 * of the fuzz cases gives 108, 146, 122 and 146.
 */
const ANONYMOUS_SHARE = 0.116;
const ANONYMOUS_FUZZ_SHARE = 0.016;
/** The busiest identity's requests of the checks: ≈ 66, measured as 15 % of 440. */
const IDENTITY_SHARE = 0.071;
/** Start-up and reports, beyond the paced time. */
const FIXED_SECONDS = 10;
/** Of the longest window, what the rate-limit rules' burst and recovery add. */
const WINDOW_SHARE = 0.25;
/**
 * Wall time over paced time where the deciding counter does not count every request, on the paced run's six
 * workers (measured: per credential 20 per 10 s, 98.4 s for 97.8 s paced + 12.5 s; 1.9–2.1 on two workers).
 */
const SERIAL_FACTOR = 1;

export interface RunEstimate {
  readonly requests: number;
  readonly fuzzCases: number;
  /** The pace of the limit that decides the wall time (requests/s). */
  readonly pace: number;
  /** That limit's label. */
  readonly limit: string;
  readonly seconds: number;
  /**
   * With a key not declared: the wall time if the target counts per credential — the reading the run starts from
   * (specs/run/scopes.ts UNDECLARED_KEYS) and keeps unless a limited answer says otherwise; `seconds` is
   * then the time per address, the coarsest the run may learn.
   */
  readonly fromSeconds?: number;
  /** The same without fuzz cases (`--budget 0`): the least a run can take. */
  readonly checksOnlySeconds: number;
}

const paceOf = (e: RateEntry): number => paceForLimit(e.limit, e.windowSeconds, e.burst).perSecond;

/** Requests the busiest counter of `e` gets, for `fuzzCases` fuzz cases. */
function busiest(profile: Profile, e: RateEntry, fuzzCases: number): number {
  // A limit of one route or a few (login, /limited): only the rate-limit rules' burst goes there, unpaced.
  if (e.appliesTo === 'endpoint' || e.routes !== undefined) return 0;
  const fuzzPath = profile.endpoints.protected?.path ?? '/';
  const fuzzed = entryApplies(e, fuzzPath, true) ? fuzzCases : 0;
  // The fuzz cases without a credential (absent, or a blank field) count where requests without one do.
  const anonymous =
    ANONYMOUS_SHARE * CHECKS + (entryApplies(e, fuzzPath, false) ? ANONYMOUS_FUZZ_SHARE * fuzzCases : 0);
  if (e.appliesTo === 'anonymous') return anonymous;
  // A key not declared is estimated per address, the coarsest: the run learns it when the target counts so (the
  // common case: nginx, @fastify/rate-limit, express-rate-limit), and a finer key only makes the run shorter.
  switch (e.key ?? 'address') {
    case 'address':
      return (e.appliesTo === 'authenticated' ? (1 - ANONYMOUS_SHARE) * CHECKS : CHECKS) + fuzzed;
    case 'identity':
    case 'credential':
      return e.appliesTo === 'authenticated' ? IDENTITY_SHARE * CHECKS : anonymous;
    default:
      return ROUTE_SHARE * CHECKS + fuzzed;
  }
}

/** Whether `e`'s busiest counter counts every request of the run (then nothing goes unpaced beside it). */
const countsAll = (e: RateEntry): boolean =>
  (e.key ?? 'address') === 'address' && e.appliesTo === 'all' && e.routes === undefined;

function secondsFor(profile: Profile, entries: readonly RateEntry[], fuzzCases: number) {
  let worst = { seconds: 0, entry: entries[0] as RateEntry, requests: 0 };
  for (const e of entries) {
    const requests = busiest(profile, e, fuzzCases);
    const seconds = requests / paceOf(e);
    if (seconds >= worst.seconds) worst = { seconds, entry: e, requests };
  }
  const paced = entries.some(countsAll) ? worst.seconds : SERIAL_FACTOR * worst.seconds;
  const longestWindow = Math.max(...entries.map((e) => e.windowSeconds));
  return {
    seconds: paced + FIXED_SECONDS + WINDOW_SHARE * longestWindow,
    entry: worst.entry,
  };
}

/** The fuzz cases a run will plan: --budget, else budget.fuzzCases, else the default sized to the pace. */
export function plannedFuzzCases(profile: Profile, budget: number | undefined): number {
  const chosen = budget ?? profile.budget?.fuzzCases;
  const wanted = chosen ?? DEFAULT_FUZZ_CASES;
  return Math.min(wanted, affordableFuzzCases(profile, chosen !== undefined).cases);
}

/**
 * Undefined without a declared limit that paces the run — none declared, or only limits of one route or a few
 * (the bundled mock's `/limited`): the run is then not paced, so its time is not the limit's.
 */
export function estimateRun(profile: Profile, fuzzCases: number): RunEstimate | undefined {
  const { entries } = ratePolicyOf(profile);
  if (entries.every((e) => busiest(profile, e, fuzzCases) === 0)) return undefined;
  const { seconds, entry } = secondsFor(profile, entries, fuzzCases);
  const started = UNDECLARED_KEYS[0] ?? 'credential';
  const asStarted = entries.map((e): RateEntry => (e.key === undefined ? { ...e, key: started } : e));
  const from = entries.some((e) => e.key === undefined)
    ? secondsFor(profile, asStarted, fuzzCases).seconds
    : seconds;
  return {
    requests: CHECKS + fuzzCases,
    fuzzCases,
    pace: paceOf(entry),
    limit: entry.label,
    seconds,
    ...(from < seconds ? { fromSeconds: from } : {}),
    checksOnlySeconds: secondsFor(profile, entries, 0).seconds,
  };
}

/**
 * The most fuzz cases that fit `maxSeconds` of wall time, or the least time the run needs when not even the
 * checks fit. Without a declared limit: undefined (nothing paces the run; --max-duration does not size it).
 */
export function casesWithin(
  profile: Profile,
  maxSeconds: number,
): { fuzzCases: number } | { tooShort: number } | undefined {
  const least = estimateRun(profile, 0);
  if (least === undefined) return undefined;
  if (least.seconds > maxSeconds) return { tooShort: Math.ceil(least.seconds) };
  let lo = 0;
  let hi = 10_000_000;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if ((estimateRun(profile, mid)?.seconds ?? Number.POSITIVE_INFINITY) <= maxSeconds) lo = mid;
    else hi = mid - 1;
  }
  return { fuzzCases: lo };
}

/** `≈ 4 min`, `≈ 45 s`, `≈ 1 h 10 min`. */
export function duration(seconds: number): string {
  if (seconds < 90) return `≈ ${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `≈ ${minutes} min`;
  return `≈ ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** `≈ 4 min`, or with a key not declared `≈ 2 min if the target counts per credential, up to 27 min per address (…)`. */
function durationOf(e: RunEstimate): string {
  if (e.fromSeconds === undefined) return duration(e.seconds);
  const from = duration(e.fromSeconds).replace(/^≈ /, '');
  const to = duration(e.seconds).replace(/^≈ /, '');
  return `≈ ${from} if the target counts per credential, up to ${to} per address (the key is not declared)`;
}

/**
 * The line printed before the run: requests planned, the pace, the expected wall time, and the workers when the
 * CLI chose them for the pace (cli/paced-workers.ts).
 */
export function estimateLine(e: RunEstimate, workers?: number): string {
  const round = (n: number) => Math.round(n * 10) / 10;
  return (
    `gatecheck: plan ≈ ${e.requests.toLocaleString('en-US')} requests (${e.fuzzCases.toLocaleString('en-US')} fuzz cases), ` +
    `paced at ${round(e.pace)} requests/s by ${e.limit}: ${durationOf(e)}` +
    `${workers === undefined ? '' : ` on ${workers} workers`}; ` +
    `--budget 0 ${duration(e.checksOnlySeconds)}, --max-duration sizes it`
  );
}
