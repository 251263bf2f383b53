/**
 * The schemes side by side (bench/scheme-spread.ts): a path more than 15 % behind the round's fastest by both
 * its req/s and its CPU per request over bare node:http's, in every round, misses the check; one reading, or
 * some rounds, do not.
 */
import { expect, test } from '@playwright/test';
import { type PathReading, schemeSpread, schemeSpreadLine } from '../../bench/scheme-spread.ts';

const path = (id: string, ratios: number[], cpuRatios?: number[]): PathReading => ({
  id,
  label: `mock, ${id}`,
  ratios,
  ...(cpuRatios === undefined ? {} : { cpuRatios }),
});
/** The same figure in each of three rounds. */
const thrice = (x: number): number[] => [x, x, x];

test('the issue #72 figures (Apikey 57 %, 401 65 %, Bearer 97 % of bare node:http) → missed, both named', () => {
  const spread = schemeSpread([
    path('bearer-rs256', thrice(0.97), thrice(0.9)),
    path('basic', thrice(0.9), thrice(0.85)),
    path('apikey', thrice(0.57), thrice(0.55)),
    path('401', thrice(0.65), thrice(0.6)),
  ]);
  expect(spread.met).toBe(false);
  expect(spread.fastest).toBe('bearer-rs256');
  expect(spread.slowest).toBe('apikey');
  expect(spread.paths.filter((p) => p.behind).map((p) => p.id)).toEqual(['apikey', '401']);
  expect(spread.paths.find((p) => p.id === 'apikey')?.roundsBehind).toBe(3);
  const line = schemeSpreadLine(spread);
  expect(line).toContain('**missed**');
  expect(line).toContain('mock, apikey 41 % behind by req/s, 39 % by CPU');
});

test('every path within 15 % of the fastest → met', () => {
  const spread = schemeSpread([
    path('bearer-rs256', thrice(0.7), thrice(0.62)),
    path('apikey', thrice(0.74), thrice(0.6)),
    path('401', thrice(0.64), thrice(0.55)),
  ]);
  expect(spread.met).toBe(true);
  expect(spread.paths.every((p) => p.roundsBehind === 0)).toBe(true);
  expect(schemeSpreadLine(spread)).toContain('**met**');
});

test('behind by req/s alone (a neighbour took the core during one case) is not a miss; by both it is', () => {
  expect(
    schemeSpread([path('bearer-rs256', thrice(1.1), thrice(0.62)), path('apikey', thrice(0.7), thrice(0.6))])
      .met,
  ).toBe(true);
  expect(
    schemeSpread([path('bearer-rs256', thrice(1.1), thrice(0.62)), path('apikey', thrice(0.7), thrice(0.5))])
      .met,
  ).toBe(false);
});

test('behind in some rounds but not all is noise, not a miss; the fastest is taken round by round', () => {
  const noisy = schemeSpread([
    path('bearer-rs256', [0.66, 0.68, 0.95], [0.61, 0.64, 0.9]),
    path('basic', [1, 1, 0.9], [1, 1, 0.95]),
  ]);
  expect(noisy.met).toBe(true);
  expect(noisy.paths[0]?.roundsBehind).toBe(2);
  // Round 3: basic is the one behind; bearer is the fastest there.
  expect(noisy.paths[1]?.roundsBehind).toBe(0);
});

test('without a CPU reading, req/s alone decides', () => {
  expect(schemeSpread([path('bearer-rs256', thrice(1)), path('apikey', thrice(0.84))]).met).toBe(false);
  expect(schemeSpread([path('bearer-rs256', thrice(1)), path('apikey', thrice(0.86))]).met).toBe(true);
});

test('no path, or a path without a round, is a misuse', () => {
  expect(() => schemeSpread([])).toThrow(TypeError);
  expect(() => schemeSpread([path('apikey', [])])).toThrow(TypeError);
});
