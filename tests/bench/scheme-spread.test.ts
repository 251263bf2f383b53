/**
 * The schemes side by side (bench/scheme-spread.ts): a path more than 15 % behind the fastest, by both its
 * req/s and its CPU per request over bare node:http's, misses the check; one reading alone does not.
 */
import { expect, test } from '@playwright/test';
import { type PathReading, schemeSpread, schemeSpreadLine } from '../../bench/scheme-spread.ts';

const at = (median: number) => ({ median, min: median, max: median });
const path = (id: string, ratio: number, cpuRatio?: number): PathReading => ({
  id,
  label: `mock, ${id}`,
  ratio: at(ratio),
  ...(cpuRatio === undefined ? {} : { cpuRatio: at(cpuRatio) }),
});

test('the issue #72 figures (Apikey 57 %, 401 65 %, Bearer 97 % of bare node:http) → missed, both named', () => {
  const spread = schemeSpread([
    path('bearer-rs256', 0.97, 0.9),
    path('basic', 0.9, 0.85),
    path('apikey', 0.57, 0.55),
    path('401', 0.65, 0.6),
  ]);
  expect(spread.met).toBe(false);
  expect(spread.fastest).toBe('bearer-rs256');
  expect(spread.slowest).toBe('apikey');
  expect(spread.paths.filter((p) => p.behind).map((p) => p.id)).toEqual(['apikey', '401']);
  expect(schemeSpreadLine(spread)).toContain('**missed**');
  expect(schemeSpreadLine(spread)).toContain('mock, apikey 41 % behind by req/s, 39 % by CPU');
});

test('every path within 15 % of the fastest → met', () => {
  const spread = schemeSpread([
    path('bearer-rs256', 0.7, 0.62),
    path('apikey', 0.74, 0.6),
    path('401', 0.64, 0.55),
  ]);
  expect(spread.met).toBe(true);
  expect(spread.paths.every((p) => !p.behind)).toBe(true);
  expect(schemeSpreadLine(spread)).toContain('**met**');
});

test('behind by req/s alone (a neighbour took the core during one case) is not a miss; by both it is', () => {
  const noisy = schemeSpread([path('bearer-rs256', 1.1, 0.62), path('apikey', 0.7, 0.6)]);
  expect(noisy.met).toBe(true);
  const real = schemeSpread([path('bearer-rs256', 1.1, 0.62), path('apikey', 0.7, 0.5)]);
  expect(real.met).toBe(false);
});

test('without a CPU reading, req/s alone decides', () => {
  expect(schemeSpread([path('bearer-rs256', 1), path('apikey', 0.84)]).met).toBe(false);
  expect(schemeSpread([path('bearer-rs256', 1), path('apikey', 0.86)]).met).toBe(true);
});

test('no path to compare is a misuse', () => {
  expect(() => schemeSpread([])).toThrow(TypeError);
});
