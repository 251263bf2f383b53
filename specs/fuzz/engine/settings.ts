/**
 * Run settings of the fuzz phase: the seed (fixed by default and printed; GATECHECK_SEED changes it), the
 * number of cases (GATECHECK_BUDGET, else profile.budget.fuzzCases, else DEFAULT_FUZZ_CASES, split between
 * the fuzz rules by weight), the requests in flight (profile.budget.concurrency split between Playwright
 * workers, as specs/lib/budget.ts splits it) and the replay of one counterexample (GATECHECK_FUZZ_REPLAY).
 */
import { DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_MS } from '../../lib/budget.ts';
import { DEFAULT_FUZZ_CASES, DEFAULT_SEED, ENV } from '../../lib/env.ts';
import type { Profile } from '../../profile/types.ts';

/** `<rule id>:<fast-check path>`, printed with every failure: replays that counterexample and shrinks on. */
export const FUZZ_REPLAY_ENV = 'GATECHECK_FUZZ_REPLAY';

/** `playwright`: send the cases without control octets through Playwright's APIRequestContext (traceable, slower). */
export const FUZZ_CLIENT_ENV = 'GATECHECK_FUZZ_CLIENT';

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
  let totalCases = budget ?? profile.budget?.fuzzCases ?? DEFAULT_FUZZ_CASES;
  // A profile that bounds the whole run's requests bounds the fuzz phase too (politeness first).
  if (profile.budget?.maxRequests !== undefined)
    totalCases = Math.min(totalCases, profile.budget.maxRequests);
  return {
    seed: (seedFromEnv ?? DEFAULT_SEED) | 0,
    seedSource: seedFromEnv === undefined ? 'default' : 'GATECHECK_SEED',
    totalCases,
    concurrency: Math.max(1, Math.floor(cap / Math.max(1, workers))),
    timeoutMs: profile.budget?.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    replay,
    client,
  };
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
  return totalCases === 0 ? 0 : Math.max(1, Math.round((totalCases * weight) / sum));
}
