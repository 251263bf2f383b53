/**
 * How long a run will take, said before it starts (docs/cli.md "--max-duration"): with a declared rate limit
 * the run goes at the limit's pace, so its wall time is about the requests of its busiest counter at that
 * pace, plus the start-up and, where the rate-limit rules need the target to themselves, their window.
 * `--max-duration` sizes the fuzz cases to a wall time; below what the checks alone need, the run is refused
 * (exit 2) before any request.
 *
 * The model (calibrated on the politeness bench, docs/performance.md): a run sends ≈ CHECKS requests for its
 * checks and the fuzz cases; per address (or a key not declared) every request counts; per route the busiest
 * route (the protected one) gets the fuzz cases and ≈ 13 % of the checks; per credential the busiest counter is
 * that of the requests without a credential to a declared route (per address, ≈ 7 % of the checks and 1.6 % of
 * the fuzz cases), per identity the same and the public route's fuzz cases, or, for a limit of authenticated
 * requests only, the busiest identity's (≈ 7 %). The time of a counter's requests is its pacer's
 * (specs/run/pacer.ts `durationMs`): a window log of 95 % of the limit per window where the profile declares the
 * key and no burst, else a GCRA at 90 % of the rate. On the paced run's workers (cli/paced-workers.ts) the waits
 * of the checks overlap, so the deciding counter's time is the run's (SERIAL_FACTOR).
 */

import { DEFAULT_FUZZ_CASES } from '../../shared/env.ts';
import { affordableFuzzCases } from '../fuzz/engine/settings.ts';
import { entryApplies, type RateEntry, ratePolicyOf } from '../profile/rate-policy.ts';
import type { Profile, RateLimitKey } from '../profile/types.ts';
import { paceForDeclared, takesWholeLimit } from '../run/pacer.ts';
import type { OverDeclared } from '../run/politeness.ts';
import { counterLabel, sharedByTheRun, UNDECLARED_KEYS } from '../run/scopes.ts';

/**
 * Requests a run sends besides its planned fuzz cases: `GATECHECK_BUDGET=0 npx playwright test` sent 929 against
 * the bundled mock; the politeness bench's runs 919–967 beyond their planned cases (#38 sixth pass). It was 440
 * (1,281 − 858 fuzz cases, an earlier run against nginx): the time per address came out 27–46 % short.
 */
const CHECKS = 930;
/** The busiest route's requests of the checks (the protected endpoint): ≈ 123, measured as 28 % of 440. */
const ROUTE_SHARE = 0.133;
/**
 * The requests sent without a credential to a declared route and method (one counter per address, blank
 * Authorization fields included): ANONYMOUS_SHARE of the checks' requests and ANONYMOUS_FUZZ_SHARE of the fuzz
 * cases. Measured by the run's own counter (`npm run bench -- --only polite`, its deciding counter, #38 eighth
 * pass, the conformance client's requests bucketed by the path as sent): 56 requests with no fuzz case planned
 * and 94 with 2,400 at 20 per 10 s; 67 with 858 and 94 with 2,400 at 60 per 10 s — 56 + 1.6 % of the fuzz cases
 * gives 56, 94, 70 and 94. The ≈ 52 more to no declared route
 * or method (404s, 405s, OPTIONS) count apart (specs/run/scopes.ts `unrouted`) and never decide; a target that
 * counts them with the rest adds them, and the one window its first limited answer costs (not in the estimate).
 */
const ANONYMOUS_SHARE = 0.06;
const ANONYMOUS_FUZZ_SHARE = 0.016;
/**
 * The checks' requests without a credential to no declared route or method (404s, 405s, `OPTIONS`): counted
 * apart until the target counts them too, then with the requests without one. Measured against a gateway that
 * counts every request per credential (the real @fastify/rate-limit per parsed credential, #38 eighth pass): its
 * busiest counter, the requests without a credential, held 146 with 2,400 fuzz cases — 94 routed + 52 (5.6 % of
 * the checks' 930).
 */
const UNROUTED_ANONYMOUS_SHARE = 0.056;
/**
 * Per identity, the fuzz cases on the public route whose credential verifies as no identity are served, and
 * counted, as anonymous (specs/run/scopes.ts counterOf): 324 of 2,400 beside the 102 above in the DRF-like
 * exact row's deciding counter (426 requests, #38 seventh pass).
 */
const PUBLIC_FUZZ_SHARE = 0.135;
/** The busiest identity's requests of the checks: ≈ 66, measured as 15 % of 440. */
const IDENTITY_SHARE = 0.071;
/**
 * Start-up and reports, beyond the paced time: spawn to the first request 5.7–6.4 s, the last request to the
 * run's end ≈ 0.7 s (`bench/counter-trace.ts`, #38 ninth pass), the observers' worker and the reports ≈ 0.6 s
 * (eleventh pass). It was 10, from runs that took 8.5 s to their first request: the rows of the politeness bench
 * with one figure came out 1–8 % over their wall time, and the per-credential row at 60 per 10 s 21 % over with
 * a minimal profile (#38 thirteenth pass).
 */
const FIXED_SECONDS = 8;
/**
 * Of the longest window, what the rate-limit rules' burst and recovery add where they need the target to
 * themselves (a key per address or per route in force: RunCoordinator.exclusive); per identity or credential
 * the burst's throw-away identity has a counter of its own, and the run does not stop for it.
 */
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
  /**
   * With every key declared, where the requests to no declared route or method can decide (per credential or
   * identity: they go with the requests without a credential): the wall time if the target counts them too.
   */
  readonly unroutedSeconds?: number;
  /** The same without fuzz cases (`--budget 0`): the least a run can take. */
  readonly checksOnlySeconds: number;
}

/**
 * The pace the run keeps for `e`'s counters (specs/run/coordinator.ts): a window log where the profile says the
 * target takes the whole limit at once (its key declared, no burst), else the GCRA.
 */
const paceFor = (e: RateEntry) =>
  paceForDeclared(e.limit, e.windowSeconds, {
    ...(e.burst === undefined ? {} : { burst: e.burst }),
    wholeLimit: takesWholeLimit(e),
  });

/**
 * A limit the target keeps lower than declared (KeptLimit): the run offers more than the target takes and
 * waits each limited answer out, so its counter goes at the target's own rate, `keptLower` per window.
 */
type EstimatedEntry = RateEntry & { readonly keptLower?: number };

const paceOf = (e: EstimatedEntry): number =>
  e.keptLower === undefined ? paceFor(e).perSecond : e.keptLower / e.windowSeconds;

/** How long `requests` of one counter take at that pace (s). */
const pacedSeconds = (e: EstimatedEntry, requests: number): number =>
  e.keptLower === undefined ? paceFor(e).durationMs(requests) / 1000 : requests / paceOf(e);

/** The key `e`'s counters are paced by: its own, else `started` (the key a run starts from, or the coarsest). */
const keyOf = (e: RateEntry, started: RateLimitKey): RateLimitKey => e.key ?? started;

/**
 * Requests the busiest counter of `e` gets, for `fuzzCases` fuzz cases, paced per `key`; `countsUnrouted`: the
 * target counts the requests to no declared route or method with the rest.
 */
function busiest(
  profile: Profile,
  e: RateEntry,
  fuzzCases: number,
  key: RateLimitKey,
  countsUnrouted = false,
): number {
  // A limit of one route or a few (login, /limited): only the rate-limit rules' burst goes there, unpaced.
  if (e.appliesTo === 'endpoint' || e.routes !== undefined) return 0;
  const fuzzPath = profile.endpoints.protected?.path ?? '/';
  const fuzzed = entryApplies(e, fuzzPath, true) ? fuzzCases : 0;
  // The fuzz cases without a credential (absent, or a blank field) count where requests without one do.
  const anonymous =
    (ANONYMOUS_SHARE + (countsUnrouted ? UNROUTED_ANONYMOUS_SHARE : 0)) * CHECKS +
    (entryApplies(e, fuzzPath, false) ? ANONYMOUS_FUZZ_SHARE * fuzzCases : 0);
  if (e.appliesTo === 'anonymous') return anonymous;
  switch (key) {
    case 'address':
      return (e.appliesTo === 'authenticated' ? (1 - ANONYMOUS_SHARE) * CHECKS : CHECKS) + fuzzed;
    case 'identity': {
      if (e.appliesTo === 'authenticated') return IDENTITY_SHARE * CHECKS;
      const publicPath = profile.endpoints.public?.path;
      const served = publicPath !== undefined && entryApplies(e, publicPath, true);
      return anonymous + (served ? PUBLIC_FUZZ_SHARE * fuzzCases : 0);
    }
    case 'credential':
      return e.appliesTo === 'authenticated' ? IDENTITY_SHARE * CHECKS : anonymous;
    default:
      return ROUTE_SHARE * CHECKS + fuzzed;
  }
}

/** Whether `e`'s busiest counter counts every request of the run (then nothing goes unpaced beside it). */
const countsAll = (e: RateEntry, key: RateLimitKey): boolean =>
  key === 'address' && e.appliesTo === 'all' && e.routes === undefined;

/**
 * The wall time with every entry's counters paced per its key (a key not declared per `started`: `address`, the
 * coarsest, which the run learns when the target counts so — nginx, @fastify/rate-limit, express-rate-limit —
 * or the key the run starts from).
 */
function secondsFor(
  profile: Profile,
  entries: readonly RateEntry[],
  fuzzCases: number,
  started: RateLimitKey = 'address',
  countsUnrouted = false,
) {
  let worst = { seconds: 0, entry: entries[0] as RateEntry, requests: 0 };
  for (const e of entries) {
    const requests = busiest(profile, e, fuzzCases, keyOf(e, started), countsUnrouted);
    const seconds = pacedSeconds(e, requests);
    if (seconds >= worst.seconds) worst = { seconds, entry: e, requests };
  }
  const all = entries.some((e) => countsAll(e, keyOf(e, started)));
  const paced = all ? worst.seconds : SERIAL_FACTOR * worst.seconds;
  const exclusive = entries.some((e) => sharedByTheRun(keyOf(e, started)));
  const longestWindow = Math.max(...entries.map((e) => e.windowSeconds));
  return {
    seconds: paced + FIXED_SECONDS + (exclusive ? WINDOW_SHARE * longestWindow : 0),
    entry: worst.entry,
  };
}

/** The fuzz cases a run will plan: --budget, else budget.fuzzCases, else the default sized to the pace. */
export function plannedFuzzCases(profile: Profile, budget: number | undefined): number {
  const chosen = budget ?? profile.budget?.fuzzCases;
  const wanted = chosen ?? DEFAULT_FUZZ_CASES;
  return Math.min(wanted, affordableFuzzCases(profile, chosen !== undefined).cases);
}

/** A declared limit the target was seen keeping lower (specs/run/coordinator.ts seeOverDeclared). */
export interface KeptLimit {
  /** Its place in the profile's `rateLimit` list (0 for a single one). */
  readonly index: number;
  /** The requests per window the target let through. */
  readonly limit: number;
}

/**
 * Undefined without a declared limit that paces the run — none declared, or only limits of one route or a few
 * (the bundled mock's `/limited`): the run is then not paced, so its time is not the limit's. `kept`: limits the
 * run saw the target keep lower than declared, estimated at what the target lets through per window (the run
 * keeps the declared pace and waits each limited answer out, so it goes at the target's own rate).
 */
export function estimateRun(
  profile: Profile,
  fuzzCases: number,
  kept: readonly KeptLimit[] = [],
): RunEstimate | undefined {
  const entries = ratePolicyOf(profile).entries.map((e): EstimatedEntry => {
    const seen = kept.find((k) => k.index === e.index);
    return seen === undefined || seen.limit >= e.limit ? e : { ...e, keptLower: Math.max(1, seen.limit) };
  });
  if (entries.every((e) => busiest(profile, e, fuzzCases, keyOf(e, 'address')) === 0)) return undefined;
  const { seconds, entry } = secondsFor(profile, entries, fuzzCases);
  const declared = entries.every((e) => e.key !== undefined);
  const from = declared
    ? seconds
    : secondsFor(profile, entries, fuzzCases, UNDECLARED_KEYS[0] ?? 'credential').seconds;
  const unrouted = declared ? secondsFor(profile, entries, fuzzCases, 'address', true).seconds : seconds;
  return {
    requests: CHECKS + fuzzCases,
    fuzzCases,
    pace: paceOf(entry),
    limit: entry.label,
    seconds,
    ...(from < seconds ? { fromSeconds: from } : {}),
    ...(unrouted > seconds ? { unroutedSeconds: unrouted } : {}),
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

/**
 * `≈ 4 min`; per credential `≈ 51 s, up to 82 s if the target counts the requests to no declared route or method`;
 * with a key not declared `≈ 2 min if the target counts per credential, up to 27 min per address (…)`.
 */
function durationOf(e: RunEstimate): string {
  if (e.fromSeconds === undefined && e.unroutedSeconds !== undefined)
    return `${duration(e.seconds)}, up to ${duration(e.unroutedSeconds).replace(/^≈ /, '')} if the target counts the requests to no declared route or method`;
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

/**
 * The line printed when the run sees the target keep a declared limit lower than declared (each new low): the
 * evidence, and the wall time from the run's start at what the target lets through beside the plan's.
 */
export function revisedEstimateLine(
  seen: OverDeclared,
  revised: RunEstimate,
  planned: RunEstimate | undefined,
): string {
  const before =
    planned === undefined
      ? ''
      : ` (estimated before the run: ${duration(planned.seconds).replace(/^≈ /, '')})`;
  return (
    `gatecheck: ${seen.limit}: the target let ${seen.requests} requests of ${counterLabel(seen.counter)} through within ` +
    `${seen.windowSeconds} s before limiting, where ${seen.declared} are declared; each limited answer is waited out, ` +
    `so the run takes ${duration(revised.seconds)} in all at the target's limit${before}`
  );
}
