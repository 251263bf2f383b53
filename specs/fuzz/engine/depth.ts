/**
 * When a fuzz rule's answers give no verdict (docs/design.md "A polite client": the clock is never a verdict;
 * only an answer from the target is evidence): a rule stopped by time before its minimum depth, or one whose
 * answers were mostly no verdict (rate limited, no answer in time) with too few judged ones left, is skipped
 * with the reason — never passed on what it did not send, never failed on what it did not get.
 */

import { MIN_CASES_PER_RULE } from './settings.ts';
import type { FuzzStats } from './types.ts';

/** How a rule's requests went when none of them failed it. */
export type DepthStats = Pick<FuzzStats, 'cases' | 'durationMs' | 'unjudged' | 'stopped'>;

/** What a rule that sent none yet may take its rate from: the test's own requests. */
export interface RateFallback {
  readonly msPerRequest: number | undefined;
  readonly concurrency: number;
}

/**
 * "sent 37 of 200 cases in 39 s at 0.9 requests/s; needs ≈ 220 s" (for all the planned cases at that rate). A
 * rule that sent none yet takes its rate from the test's own requests (`concurrency` in flight, each as long as
 * the test's answers took so far).
 */
export function depthLine(
  stats: Pick<FuzzStats, 'cases' | 'durationMs'>,
  planned: number,
  fallback?: RateFallback,
): string {
  const seconds = stats.durationMs / 1000;
  let rate = seconds > 0 ? stats.cases / seconds : 0;
  if (rate === 0 && fallback?.msPerRequest !== undefined && fallback.msPerRequest > 0)
    rate = (fallback.concurrency * 1000) / fallback.msPerRequest;
  const needs = rate > 0 ? `needs ≈ ${Math.ceil(planned / rate)} s` : 'needs more time than it had';
  return `sent ${stats.cases} of ${planned} cases in ${Math.round(seconds)} s at ${rate >= 10 ? Math.round(rate) : Math.round(rate * 10) / 10} requests/s; ${needs}`;
}

/**
 * The reason a rule none of whose answers failed it has no verdict, or undefined when it is judged on what it
 * sent. `fallback` is read only when the rule was stopped before its minimum.
 */
export function noVerdictReason(
  stats: DepthStats,
  planned: number,
  fallback: () => RateFallback,
): string | undefined {
  const minimum = Math.min(planned, MIN_CASES_PER_RULE);
  if (stats.stopped !== undefined && stats.cases < minimum)
    return `${stats.stopped}; ${depthLine(stats, planned, fallback())}`;
  const unjudged = Object.values(stats.unjudged).reduce((a, b) => a + b, 0);
  const judged = stats.cases - unjudged;
  // Most answers no verdict, and too few left to judge the rule by. A rule whose arbitrary simply has fewer
  // cases than the minimum, all judged, is judged on them.
  if (unjudged > judged && judged < minimum)
    return `only ${judged} of ${stats.cases} answers could be judged (the rest: ${JSON.stringify(stats.unjudged)}), fewer than the rule's minimum of ${minimum}; no verdict`;
  return undefined;
}
