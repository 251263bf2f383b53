/**
 * The counter trace's longest span with no request and the tests holding the workers through it
 * (bench/quiet-span.ts), read from a Playwright JSON report's shape.
 */
import { expect, test } from '@playwright/test';
import { longestQuietSpan, testSpans } from '../../bench/quiet-span.ts';

const at = (ms: number) => new Date(ms).toISOString();

const report = {
  suites: [
    {
      specs: [
        {
          title: 'check',
          file: 'conformance/a.spec.ts',
          tests: [{ results: [{ startTime: at(1_000), duration: 2_000, parallelIndex: 0 }] }],
        },
      ],
      suites: [
        {
          specs: [
            {
              title: 'waits',
              file: 'fuzz/b.spec.ts',
              tests: [{ results: [{ startTime: at(2_000), duration: 9_000, parallelIndex: 1 }] }],
            },
            {
              title: 'queued',
              file: 'fuzz/c.spec.ts',
              tests: [{ results: [{ startTime: at(10_500), duration: 500, parallelIndex: 0 }] }],
            },
          ],
        },
      ],
    },
  ],
};

test('every result of a nested report is a span with its worker', () => {
  expect(testSpans(report).map((t) => [t.title, t.worker, t.startMs, t.endMs])).toEqual([
    ['check', 0, 1_000, 3_000],
    ['waits', 1, 2_000, 11_000],
    ['queued', 0, 10_500, 11_000],
  ]);
});

test('the longest gap between requests, the tests across it, and those that started only after it', () => {
  const quiet = longestQuietSpan([1_100, 2_500, 2_900, 10_400, 10_600, 10_900], testSpans(report));
  expect([quiet?.fromMs, quiet?.toMs]).toEqual([2_900, 10_400]);
  expect(quiet?.holding.map((t) => t.title)).toEqual(['waits']);
  expect(quiet?.after.map((t) => t.title)).toEqual(['queued']);
  expect(longestQuietSpan([5], [])).toBeUndefined();
});
