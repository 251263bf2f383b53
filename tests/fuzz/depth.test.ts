/**
 * A fuzz rule with no verdict (specs/fuzz/engine/depth.ts, docs/design.md "A polite client"): stopped by time
 * before its minimum, or with its answers mostly no verdict (rate limited, no answer in time) and too few judged
 * ones left, it is skipped with the reason; with enough judged answers, or an arbitrary that has fewer cases than
 * the minimum and all judged, it is judged.
 */
import { expect, test } from '@playwright/test';
import { type DepthStats, depthLine, noVerdictReason } from '../../specs/fuzz/engine/depth.ts';

const noFallback = () => ({ msPerRequest: undefined, concurrency: 1 });
const stats = (over: Partial<DepthStats>): DepthStats => ({
  cases: 200,
  durationMs: 10_000,
  unjudged: {},
  ...over,
});

test('mostly rate-limited answers and fewer judged than the minimum: no verdict, saying how many were judged', () => {
  const reason = noVerdictReason(
    stats({ cases: 40, unjudged: { 'rate limited (429)': 35 } }),
    200,
    noFallback,
  );
  expect(reason).toBe(
    'only 5 of 40 answers could be judged (the rest: {"rate limited (429)":35}), fewer than the rule\'s minimum of 10; no verdict',
  );
  // Answers that never came count as no verdict too.
  expect(
    noVerdictReason(
      stats({ cases: 12, unjudged: { 'no answer within budget.timeoutMs': 12 } }),
      50,
      noFallback,
    ),
  ).toMatch(/^only 0 of 12 answers could be judged/);
});

test('enough judged answers, or fewer unjudged than judged: judged on them', () => {
  // Most unjudged, but the judged ones reach the minimum.
  expect(noVerdictReason(stats({ cases: 40, unjudged: { 'rate limited (429)': 25 } }), 200, noFallback)).toBe(
    undefined,
  );
  // Fewer judged than the minimum, but most were judged: an arbitrary with few cases is judged on them.
  expect(noVerdictReason(stats({ cases: 9, unjudged: { 'rate limited (429)': 2 } }), 9, noFallback)).toBe(
    undefined,
  );
  expect(noVerdictReason(stats({ cases: 200 }), 200, noFallback)).toBe(undefined);
});

test('stopped by time before the minimum: no verdict, with what it sent and what it needs', () => {
  const reason = noVerdictReason(
    stats({ cases: 4, durationMs: 8_000, stopped: "the test's time ran out" }),
    200,
    noFallback,
  );
  expect(reason).toBe("the test's time ran out; sent 4 of 200 cases in 8 s at 0.5 requests/s; needs ≈ 400 s");
  // Stopped after the minimum: judged on what it sent.
  expect(noVerdictReason(stats({ cases: 37, stopped: 'budget.maxSeconds' }), 200, noFallback)).toBe(
    undefined,
  );
});

test("a rule that sent nothing takes its rate from the test's own requests", () => {
  expect(depthLine({ cases: 0, durationMs: 0 }, 50, { msPerRequest: 1_000, concurrency: 8 })).toBe(
    'sent 0 of 50 cases in 0 s at 8 requests/s; needs ≈ 7 s',
  );
  expect(depthLine({ cases: 0, durationMs: 0 }, 50)).toBe(
    'sent 0 of 50 cases in 0 s at 0 requests/s; needs more time than it had',
  );
});
