/**
 * Plans sized to the pace (docs/design.md "A polite client"): a fuzz rule's planned cases at the pace in force
 * for its requests must fit the time it has (its share of the run's), or are cut to what fits — never below the
 * rule's minimum: a rule that cannot fit even that is skipped before it starts, with the time it would need.
 */
import { MIN_CASES_PER_RULE } from './settings.ts';

export type Sizing =
  | { readonly cases: number; readonly needsMs: number; readonly note?: string }
  | { readonly skip: string };

/** Share of the time a cut plan fills: the rest absorbs what the pace does not (answers' own time, jitter). */
const FILL = 0.9;

/** `pace`: requests/s in force for the rule's requests (undefined: unpaced); `availableMs`: the time it has. */
export function sizeToPace(planned: number, pace: number | undefined, availableMs: number): Sizing {
  if (pace === undefined) return { cases: planned, needsMs: 0 };
  const needsMs = (planned / pace) * 1000;
  if (needsMs <= availableMs) return { cases: planned, needsMs };
  const fits = Math.floor((availableMs / 1000) * pace * FILL);
  const minimum = Math.min(planned, MIN_CASES_PER_RULE);
  const at = `at the pace in force for its requests (${Math.round(pace * 10) / 10} requests/s)`;
  const share = `its share of budget.maxSeconds (${Math.round(availableMs / 1000)} s)`;
  if (fits < minimum) {
    return {
      skip: `${share} ${at} affords ${Math.max(0, fits)} of its ${planned} cases, fewer than its minimum of ${minimum}; needs ≈ ${Math.ceil(needsMs / 1000)} s (raise budget.maxSeconds)`,
    };
  }
  return {
    cases: fits,
    needsMs: (fits / pace) * 1000,
    note: `${fits} of ${planned} planned cases: ${share} ${at}`,
  };
}
