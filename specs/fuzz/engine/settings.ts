/**
 * Run settings of the fuzz phase: the seed (fixed by default and printed; GATECHECK_SEED changes it), the
 * number of cases (GATECHECK_BUDGET, else profile.budget.fuzzCases, else DEFAULT_FUZZ_CASES, split between
 * the fuzz rules by weight), the requests in flight (profile.budget.concurrency split between Playwright
 * workers, as specs/lib/budget.ts splits it) and the replay of one counterexample (GATECHECK_FUZZ_REPLAY).
 */

import { DEFAULT_FUZZ_CASES, DEFAULT_SEED, ENV } from '../../../shared/env.ts';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_MAX_REQUESTS,
  DEFAULT_MAX_SECONDS,
  DEFAULT_TIMEOUT_MS,
} from '../../lib/budget.ts';
import { entryApplies, type RateEntry, type RatePolicy, ratePolicyOf } from '../../profile/rate-policy.ts';
import type { Profile } from '../../profile/types.ts';
import { paceForLimit } from '../../run/pacer.ts';

/** `<rule id>:<fast-check path>`, printed with every failure: replays that counterexample and shrinks on. */
export const FUZZ_REPLAY_ENV = 'GATECHECK_FUZZ_REPLAY';

/** `playwright`: send the cases without control octets through Playwright's APIRequestContext (traceable, slower). */
export const FUZZ_CLIENT_ENV = ENV.fuzzClient;

export interface FuzzSettings {
  /** The run's seed; each rule derives its own from it (ruleSeed). */
  readonly seed: number;
  /** Where the seed came from, printed with it. */
  readonly seedSource: 'default' | 'GATECHECK_SEED';
  /** Fuzz cases for the whole run, before the split between rules. */
  readonly totalCases: number;
  /** Requests this worker keeps in flight. */
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly replay: { readonly ruleId: string; readonly path: string } | undefined;
  /** Client for cases without control octets: node:http (default) or Playwright's request context. */
  readonly client: 'http' | 'playwright';
  /** Why the run has fewer fuzz cases than asked for, when it has (the budget could not afford them). */
  readonly depth?: string;
}

function integerFrom(env: NodeJS.ProcessEnv, name: string, min: number): number | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  if (!/^-?\d+$/.test(text) || Number(text) < min || !Number.isSafeInteger(Number(text))) {
    throw new TypeError(`${name} must be an integer ≥ ${min}, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

export function fuzzSettings(
  profile: Profile,
  workers: number,
  env: NodeJS.ProcessEnv = process.env,
): FuzzSettings {
  const seedFromEnv = integerFrom(env, ENV.seed, -(2 ** 31));
  const budget = integerFrom(env, ENV.budget, 0);
  const cap = profile.budget?.concurrency ?? DEFAULT_CONCURRENCY;
  const replayText = env[FUZZ_REPLAY_ENV]?.trim();
  let replay: FuzzSettings['replay'];
  if (replayText) {
    const colon = replayText.indexOf(':');
    if (colon <= 0)
      throw new TypeError(`${FUZZ_REPLAY_ENV} must be <rule id>:<path>, got ${JSON.stringify(replayText)}`);
    replay = { ruleId: replayText.slice(0, colon), path: replayText.slice(colon + 1) };
  }
  const client = env[FUZZ_CLIENT_ENV]?.trim() || 'http';
  if (client !== 'http' && client !== 'playwright') {
    throw new TypeError(`${FUZZ_CLIENT_ENV} must be http or playwright, got ${JSON.stringify(client)}`);
  }
  const wanted = budget ?? profile.budget?.fuzzCases ?? DEFAULT_FUZZ_CASES;
  const affordable = affordableFuzzCases(
    profile,
    budget !== undefined || profile.budget?.fuzzCases !== undefined,
  );
  const totalCases = Math.min(wanted, affordable.cases);
  return {
    seed: (seedFromEnv ?? DEFAULT_SEED) | 0,
    seedSource: seedFromEnv === undefined ? 'default' : 'GATECHECK_SEED',
    totalCases,
    concurrency: Math.max(1, Math.floor(cap / Math.max(1, workers))),
    timeoutMs: profile.budget?.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    replay,
    client,
    ...(totalCases < wanted ? { depth: `${totalCases} of ${wanted} fuzz cases: ${affordable.why}` } : {}),
  };
}

/** Fewest cases a fuzz rule is given; a rule that cannot send even these is skipped, not judged. */
export const MIN_CASES_PER_RULE = 10;
/** Requests the conformance checks (not the fuzz rules) of a default run need, kept out of the fuzz share. */
const CHECKS_RESERVE = 600;
/**
 * What the checks and the rate-limit rules' burst send in a default run, in time at a declared pace: ≈ 290
 * before the refusal rules (#29: every method, path spelling, refused write and JSON value) and ≈ 490 with them,
 * so 600 leaves room.
 */
const CHECKS_AT_PACE = 600;
/** Share of the run's wall-time budget the fuzz phase may plan to fill; the rest absorbs waits. */
const PLANNED_TIME_SHARE = 0.6;
/**
 * Where a declared limit paces the fuzz cases and the user chose no depth (GATECHECK_BUDGET, budget.fuzzCases),
 * the default run plans to take about this long: 60 requests per 10 s then allow ≈ 1,450 requests in all — the
 * checks and ≈ 850 fuzz cases. Deeper fuzzing is the user's choice (--budget), never a timeout.
 */
export const DEFAULT_PACED_RUN_SECONDS = 270;

/**
 * The pace the declared limits set for the fuzz cases (requests/s), undefined when none does: they go mostly to
 * the protected endpoint with credentials that verify as no identity, so a limit per address or per endpoint
 * that counts them paces them (and one whose key is not declared: the scheduler starts per endpoint), one per
 * identity or credential does not (each case's credential is a counter of its own). Several: the slowest.
 */
export function fuzzPace(profile: Profile, rate: RatePolicy = ratePolicyOf(profile)): number | undefined {
  const slowest = pacingEntry(profile, rate);
  return slowest === undefined ? undefined : paceOf(slowest);
}

const paceOf = (e: RateEntry): number => paceForLimit(e.limit, e.windowSeconds, e.burst).perSecond;

/** The declared limit that paces the fuzz cases (the slowest of those that count them per address or route). */
function pacingEntry(profile: Profile, rate: RatePolicy): RateEntry | undefined {
  const path = profile.endpoints.protected?.path ?? '/';
  const pacing = rate.entries.filter(
    (e) => e.key !== 'identity' && e.key !== 'credential' && entryApplies(e, path, true),
  );
  return pacing.sort((a, b) => paceOf(a) - paceOf(b))[0];
}

/**
 * Coverage before depth: the fuzz cases the run's budget affords — `budget.maxRequests` less what the
 * conformance checks need, and, where a declared limit paces the fuzz cases (fuzzPace), what that pace sends in
 * part of `budget.maxSeconds` — and, when the user chose no depth (`chosen` false), in the default paced run's
 * time. casesFor spreads them over every rule, each at least its minimum.
 */
export function affordableFuzzCases(profile: Profile, chosen = true): { cases: number; why: string } {
  const maxRequests = profile.budget?.maxRequests ?? DEFAULT_MAX_REQUESTS;
  // The checks' share: CHECKS_RESERVE, or a quarter of a smaller budget.
  let cases = maxRequests - Math.min(CHECKS_RESERVE, Math.floor(maxRequests / 4));
  let why = `budget.maxRequests is ${maxRequests}`;
  const rate = ratePolicyOf(profile);
  const rl = pacingEntry(profile, rate);
  const pace = fuzzPace(profile, rate);
  if (rl !== undefined && pace !== undefined) {
    const maxSeconds = profile.budget?.maxSeconds ?? DEFAULT_MAX_SECONDS;
    const limit = `the declared limit (${rl.limit} per ${rl.windowSeconds} s, paced at ${Math.round(pace * 10) / 10} requests/s)`;
    const inBudget = Math.floor(pace * maxSeconds * PLANNED_TIME_SHARE - CHECKS_AT_PACE);
    if (inBudget < cases) {
      // Below the minimum per rule, casesFor still gives each rule its minimum: the scheduler then stops a rule
      // at the run's deadline, and a rule that could not send its minimum is skipped with the time it needed.
      cases = Math.max(0, inBudget);
      why = `${limit} within budget.maxSeconds (${maxSeconds} s)`;
    }
    const byDefault = Math.floor(pace * DEFAULT_PACED_RUN_SECONDS - CHECKS_AT_PACE);
    if (!chosen && byDefault < cases) {
      cases = Math.max(0, byDefault);
      why = `${limit} in a default run of about ${Math.round(DEFAULT_PACED_RUN_SECONDS / 60)} min (GATECHECK_BUDGET or budget.fuzzCases for deeper fuzzing)`;
    }
  }
  return { cases, why };
}

/** FNV-1a, 32 bits: a stable hash of the rule id, so each rule has its own stream from one run seed. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/** The seed fast-check gets for one rule: the run seed XOR fnv1a(rule id). */
export function ruleSeed(seed: number, ruleId: string): number {
  return (seed ^ fnv1a(ruleId)) | 0;
}

/**
 * This rule's share of the run's cases: `weights` covers every fuzz rule of the catalogue (not only those
 * selected by --grep), so a rule runs the same cases whether it runs alone or with the others.
 */
export function casesFor(
  ruleId: string,
  totalCases: number,
  weights: Readonly<Record<string, number>>,
): number {
  const weight = weights[ruleId];
  if (weight === undefined) throw new TypeError(`no fuzz weight for rule ${ruleId}`);
  const sum = Object.values(weights).reduce((a, b) => a + b, 0);
  return totalCases === 0 ? 0 : Math.max(MIN_CASES_PER_RULE, Math.round((totalCases * weight) / sum));
}
