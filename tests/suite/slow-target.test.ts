/**
 * Time is never evidence about the target (docs/design.md "A polite client"): a target that answers every
 * request correctly but a second late — ten times slower than a one-second test timeout allows for checks of
 * several requests and fuzz rules of dozens of cases — gives no failure: each check stops at its own deadline
 * and is skipped with what it sent and what it would have needed, never failed by Playwright's timeout.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { UNREACHABLE_RATE_LIMIT } from '../../bench/setups.ts';
import { startMock } from '../../mock/server.ts';
import { MOCK_PROFILE, runConformance } from '../helpers/run-suite.ts';
import { startBrokenTarget } from './helpers/broken-target.ts';

test.describe.configure({ timeout: 180_000 });

const LATENCY_MS = 1000;
const RULES = ['auth.401.missing', 'auth.boundary.prefix', 'fuzz.no-5xx', 'fuzz.malformed.status'];

test('every answer a second late, a 1 s test timeout → 0 failures; the checks and fuzz rules that need longer skipped with what they needed', async () => {
  const mock = await startMock({ port: 0, rateLimit: UNREACHABLE_RATE_LIMIT });
  const slow = await startBrokenTarget(mock.url, (_req, answer) => answer, { delayMs: LATENCY_MS });
  const bundled = JSON.parse(readFileSync(MOCK_PROFILE, 'utf8')) as Record<string, unknown>;
  const { rateLimit: _limits, ...profile } = bundled;
  try {
    const run = await runConformance({
      profile: {
        ...profile,
        $schema: join(MOCK_PROFILE, '..', 'schemas', 'profile.schema.json'),
        budget: { concurrency: 16, timeoutMs: 5000, fuzzCases: 400 },
      },
      env: { BASE_URL: slow.url },
      // The user's timeout, a tenth of what these checks need at this target's speed.
      args: ['--timeout=1000', `--grep=@rule:(${RULES.map((r) => r.replaceAll('.', '\\.')).join('|')})`],
      timeoutMs: 170_000,
    });
    const byId = new Map(run.rules.map((r) => [r.id, r]));
    expect(run.code, run.stdout.slice(-3000)).toBe(0);
    expect(run.rules.filter((r) => r.verdict === 'fail')).toEqual([]);
    // A fuzz rule stopped before its minimum: what it sent, at what rate, and how long all of it would need.
    for (const id of ['fuzz.no-5xx', 'fuzz.malformed.status']) {
      expect(byId.get(id)?.verdict, id).toBe('skip');
      expect(byId.get(id)?.reason).toMatch(
        /sent \d+ of \d+ cases in \d+ s at [\d.]+ requests\/s; needs ≈ \d+ s/,
      );
    }
    // A check of several requests: stopped at its own deadline, saying so.
    expect(byId.get('auth.boundary.prefix')?.verdict).toBe('skip');
    expect(byId.get('auth.boundary.prefix')?.reason).toMatch(
      /the test's time ran out: it sent \d+ requests? in [\d.]+ s/,
    );
    // Nothing ended by Playwright's timeout: the suite's own deadlines came first.
    expect(run.rules.filter((r) => /Playwright's test timeout/.test(r.reason ?? ''))).toEqual([]);
  } finally {
    await slow.close();
    await mock.close();
  }
});
