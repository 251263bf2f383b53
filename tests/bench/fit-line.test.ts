/**
 * The growth and rule series' least-squares line (bench/suite-bench.ts): seconds per unit, seconds at zero, R².
 */
import { expect, test } from '@playwright/test';
import { fitLine, runTimeoutMs } from '../../bench/suite-bench.ts';

test('a straight line is found exactly; scattered points lower R²; one x is no line', () => {
  const exact = fitLine([
    [1, 3],
    [4, 9],
    [20, 41],
    [100, 201],
  ]);
  expect(exact?.slope).toBeCloseTo(2, 9);
  expect(exact?.intercept).toBeCloseTo(1, 9);
  expect(exact?.r2).toBeCloseTo(1, 9);
  const noisy = fitLine([
    [1, 3],
    [2, 9],
    [3, 4],
    [4, 12],
  ]);
  expect(noisy?.r2).toBeLessThan(0.9);
  expect(noisy?.slope).toBeGreaterThan(0);
  expect(fitLine([[5, 1]])).toBeUndefined();
  expect(
    fitLine([
      [5, 1],
      [5, 2],
    ]),
  ).toBeUndefined();
});

test('every run is bounded in time, the largest too', () => {
  expect(runTimeoutMs(1000)).toBeLessThan(runTimeoutMs(100_000));
  expect(runTimeoutMs(10_000_000)).toBe(20 * 60_000);
});
