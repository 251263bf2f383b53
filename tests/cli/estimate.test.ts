/**
 * The estimate before the run and --max-duration (#38; specs/setup/estimate.ts): with a declared rate limit the first
 * line says how many requests the plan holds, the pace and the expected wall time; --max-duration sizes the
 * fuzz cases to a wall time, and below what the checks alone need the run stops with exit 2 — before any
 * request (the target here is a closed loopback port: any request would end in exit 3 instead).
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXIT } from '../../cli/exit-codes.ts';
import { PACED_WORKERS, pacedWorkerArgs } from '../../cli/paced-workers.ts';
import type { Profile } from '../../specs/profile/types.ts';
import {
  casesWithin,
  estimateLine,
  estimateRun,
  type RunEstimate,
  revisedEstimateLine,
} from '../../specs/setup/estimate.ts';
import { closedPort } from './broken-target.ts';
import { MOCK_PROFILE, type Scratch, scratch } from './cli.ts';

test.describe.configure({ timeout: 60_000 });

const bundled = JSON.parse(readFileSync(MOCK_PROFILE, 'utf8')) as Profile & { budget?: object };
const PER_ADDRESS = { limit: 60, windowSeconds: 10, key: 'address' } as const;
const { fuzzCases: _cases, ...budget } = (bundled.budget ?? {}) as Record<string, unknown>;
const limited = { ...bundled, rateLimit: PER_ADDRESS, budget } as unknown as Profile;
/** Seconds from the first to the last of `n` requests in a window log of 57 per 10.25 s (60 per 10 s, key declared). */
const WINDOW_LOG = (n: number) => (Math.ceil(n / 57) - 1) * 10.25;
/**
 * Start-up and reports beyond the paced time (s): spawn to the first request 5.7–6.4 s, the last answer to the
 * run's end 0.7 s, the observers and reports 0.6 s (docs/performance.md, #38 ninth and eleventh passes).
 */
const START = 8;

test('the estimate: requests planned, the pace of the deciding limit, the wall time; none without a declared limit', () => {
  const e = estimateRun(limited, 850);
  // The key declared and no burst: a window log of 57 (95 % of 60) per 10.25 s (specs/run/pacer.ts).
  expect(e).toMatchObject({ requests: 1780, fuzzCases: 850, pace: expect.closeTo(57 / 10.25, 2) });
  // 1,780 requests, 57 a window: 31 windows after the first; plus start-up and a quarter of the window (the
  // rate-limit rules' burst and its recovery, with the target to themselves per address).
  expect(e?.seconds).toBeCloseTo(WINDOW_LOG(1780) + START + 2.5, 5);
  expect(e?.checksOnlySeconds).toBeCloseTo(WINDOW_LOG(930) + START + 2.5, 5);
  expect(estimateRun({ ...limited, rateLimit: undefined } as Profile, 850)).toBeUndefined();
  // A limit of one route alone (the bundled mock's /limited) paces nothing else: no estimate.
  expect(estimateRun(bundled, 850)).toBeUndefined();
  // Several limits: the one whose busiest counter takes longest decides.
  const two = estimateRun(
    {
      ...limited,
      rateLimit: [
        { name: 'short', limit: 3, windowSeconds: 1, key: 'address' },
        { name: 'long', limit: 100, windowSeconds: 60, key: 'address' },
      ],
    } as unknown as Profile,
    400,
  );
  expect(two?.limit).toBe('long (100 per 60 s per address)');
});

test('a limit the target keeps lower than declared: the estimate at what it lets through, and the line the run prints', () => {
  const planned = estimateRun(limited, 850) as RunEstimate;
  const revised = estimateRun(limited, 850, [{ index: 0, limit: 40 }]) as RunEstimate;
  // 40 per 10 s: the run offers the declared pace and waits each limited answer out, so it goes at the target's
  // own rate (4 requests/s), with the same start-up and burst window.
  expect(revised.seconds).toBeCloseTo(1780 / 4 + START + 2.5, 5);
  expect(revised.pace).toBe(4);
  // A count above the declared limit is no evidence of a higher one; a place no limit has changes nothing.
  expect(estimateRun(limited, 850, [{ index: 0, limit: 90 }])?.seconds).toBe(planned.seconds);
  expect(estimateRun(limited, 850, [{ index: 3, limit: 10 }])?.seconds).toBe(planned.seconds);
  const seen = {
    limit: 'rateLimit',
    counter: 'address',
    requests: 40,
    events: 1,
    declared: 60,
    windowSeconds: 10,
  };
  expect(revisedEstimateLine(seen, revised, planned)).toBe(
    'gatecheck: rateLimit: the target let 40 requests of address through within 10 s before limiting, where 60 are ' +
      "declared; each limited answer is waited out, so the run takes ≈ 8 min in all at the target's limit (estimated " +
      'before the run: 5 min)',
  );
});

test('--max-duration: the most fuzz cases that fit; less than the checks need says so', () => {
  const fit = casesWithin(limited, 300);
  expect(fit).toMatchObject({ fuzzCases: expect.any(Number) });
  const cases = (fit as { fuzzCases: number }).fuzzCases;
  expect(estimateRun(limited, cases)?.seconds).toBeLessThanOrEqual(300);
  expect(estimateRun(limited, cases + 1)?.seconds).toBeGreaterThan(300);
  expect(casesWithin(limited, 60)).toEqual({ tooShort: Math.ceil(WINDOW_LOG(930) + START + 2.5) });
  // Per credential, the requests without one to a declared route (per address) decide: 95 of them, 19 a window
  // (95 % of 20): four windows after the first. No window for the rate-limit rules: their burst's throw-away
  // identity has a counter of its own.
  const perCredential = estimateRun(
    { ...limited, rateLimit: { limit: 20, windowSeconds: 10, key: 'credential' } } as Profile,
    2400,
  );
  expect(perCredential?.seconds).toBeCloseTo(4 * 10.25 + START, 5);
  // If the target counts the requests to no declared route or method too, 52 more go with them: 147, seven
  // windows after the first. The line gives both.
  expect(perCredential?.unroutedSeconds).toBeCloseTo(7 * 10.25 + START, 5);
  expect(estimateLine(perCredential as RunEstimate)).toMatch(
    /: ≈ 49 s, up to 80 s if the target counts the requests to no declared route or method;/,
  );
  // Per address every request counts already: one figure.
  expect(estimateRun(limited, 2400)?.unroutedSeconds).toBeUndefined();
});

test('a key not declared: a range, from the time per credential (the reading the run starts from) to the time per address', () => {
  const minimal = { ...limited, rateLimit: { limit: 20, windowSeconds: 10 } } as Profile;
  const e = estimateRun(minimal, 2400);
  // The key not declared: a GCRA at 90 % of the rate (1.8 requests/s, one at once), the limiter not known.
  expect(e?.seconds).toBeCloseTo((930 + 2400 - 1) / 1.8 + START + 2.5, 5);
  expect(e?.fromSeconds).toBeCloseTo((95 - 1) / 1.8 + START, 5);
  expect(estimateLine(e as RunEstimate)).toMatch(
    /: ≈ 60 s if the target counts per credential, up to 31 min per address \(the key is not declared\)/,
  );
  // Declared, one figure.
  expect(estimateRun(limited, 850)?.fromSeconds).toBeUndefined();
});

let s: Scratch;
test.beforeEach(async () => {
  s = await scratch();
});
test.afterEach(async () => s.dispose());

test('the CLI: the estimate is the first line; --max-duration below the minimum → exit 2 with the minimum, before any request', async () => {
  const file = path.join(s.dir, 'limited.profile.json');
  await writeFile(file, JSON.stringify({ ...limited, $schema: undefined }));
  const base = `http://127.0.0.1:${await closedPort()}`;
  const short = await s.gatecheck(['--profile', file, '--base-url', base, '--max-duration', '1m']);
  expect(short.code, short.stdout + short.stderr).toBe(EXIT.usage);
  expect(short.stderr).toContain(
    '--max-duration 60 s is less than the declared rate limit allows: the checks alone need ≈ 3 min (175 s)',
  );
  const sized = await s.gatecheck(['--profile', file, '--base-url', base, '--max-duration', '5m']);
  // Sized and announced, then the preflight finds no target.
  expect(sized.code, sized.stdout + sized.stderr).toBe(EXIT.unreachable);
  expect(sized.stdout.split('\n')[0]).toMatch(
    new RegExp(
      `^gatecheck: plan ≈ [\\d,]+ requests \\([\\d,]+ fuzz cases\\), paced at 5\\.6 requests/s by limit \\(60 per 10 s per address\\): ≈ [45] min on ${PACED_WORKERS} workers; --budget 0 ≈ 3 min`,
    ),
  );
});

test('a paced run goes on the paced workers, said in the estimate; workers chosen after `--` are kept (cli/paced-workers.ts)', async () => {
  test.setTimeout(120_000);
  // A limit the bundled mock never meets (1,000 per 1 s per address): the run is paced, and quick.
  const file = path.join(s.dir, 'paced.profile.json');
  await writeFile(
    file,
    JSON.stringify({
      ...limited,
      $schema: undefined,
      rateLimit: { limit: 1000, windowSeconds: 1, key: 'address' },
    }),
  );
  const rules = [
    '--only',
    'success.200.public,success.200.protected,auth.401.missing,auth.401.invalid-bearer,auth.401.invalid-basic,auth.401.invalid-apikey,auth.401.unaccepted-scheme',
  ];
  const paced = await s.gatecheck(['--profile', file, '--budget', '0', ...rules]);
  expect(paced.stdout.split('\n')[0]).toContain(`on ${PACED_WORKERS} workers;`);
  // Playwright starts no more workers than a phase has tests (here 9 checks): more than the configuration's two.
  const used = Number(/Running \d+ tests using (\d+) workers/.exec(paced.stdout)?.[1]);
  expect(used).toBeGreaterThan(2);
  expect(used).toBeLessThanOrEqual(PACED_WORKERS);
  const chosen = await s.gatecheck(['--profile', file, '--budget', '0', ...rules, '--', '--workers', '2']);
  expect(chosen.stdout.split('\n')[0]).not.toContain('workers;');
  expect(chosen.stdout).toMatch(/Running \d+ tests using 2 workers/);
});

test("the paced workers: only for a paced run, never over the user's choice", () => {
  const e = estimateRun(limited, 850);
  expect(pacedWorkerArgs(e, [])).toEqual(['--workers', String(PACED_WORKERS)]);
  expect(pacedWorkerArgs(undefined, [])).toEqual([]);
  for (const own of [['--workers', '3'], ['--workers=3'], ['-j', '3'], ['-j3'], ['-j=3']])
    expect(pacedWorkerArgs(e, own), own.join(' ')).toEqual([]);
  expect(pacedWorkerArgs(e, ['--grep', 'x', '--jobs-like'])).toEqual(['--workers', String(PACED_WORKERS)]);
});
