/**
 * Against a REAL nginx `limit_req` (Debian's nginx-light, bench/nginx-process.ts) in front of the mock: a leaky
 * bucket per client address with a burst, `nodelay`, 429 without Retry-After or any rate-limit field — started
 * on a free loopback port with a temporary prefix by the test, always stopped; skipped, saying how to install
 * it, where nginx is not there (CI installs it: .ci/run). Compressed in time (60 r/s) so a run takes seconds.
 *
 * The full default catalogue through it: no rule fails, none is skipped for time, the limit is met rarely,
 * and with the minimal profile the politeness section says the target limits per address.
 */
import { expect, test } from '@playwright/test';
import { limiterProfile, SKIPPED_FOR_TIME } from '../../bench/limiters.ts';
import { NGINX_MISSING, startNginx } from '../../bench/nginx-process.ts';
import { UNREACHABLE_RATE_LIMIT } from '../../bench/setups.ts';
import { startMock } from '../../mock/server.ts';
import type { Politeness } from '../../specs/run/politeness.ts';
import { runConformance } from '../helpers/run-suite.ts';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

for (const kind of ['exact', 'minimal'] as const) {
  test(`nginx limit_req 60 r/s burst 10 nodelay per address, ${kind} profile → no failure, no skip for time, the limit met rarely`, async () => {
    test.skip(NGINX_MISSING !== undefined, NGINX_MISSING);
    const mock = await startMock({ port: 0, rateLimit: UNREACHABLE_RATE_LIMIT });
    const nginx = await startNginx({
      upstream: mock.url,
      limit: { rate: 60, burst: 10, nodelay: true, status: 429, key: 'address' },
    }).catch(async (e: unknown) => {
      await mock.close();
      throw e;
    });
    try {
      // The nginx limiter's shape: 60 per 1 s (the bench's 60 per 10 s, ten times shorter), burst 10.
      const profile = limiterProfile('nginx', kind, 10, { fuzzCases: 150 });
      const run = await runConformance({ profile, env: { BASE_URL: nginx.url }, timeoutMs: 170_000 });
      const { rules } = run;
      const politeness = run.run.politeness as Politeness;
      expect(rules.filter((r) => r.verdict === 'fail').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
      expect(rules.filter((r) => r.verdict === 'skip' && SKIPPED_FOR_TIME.test(r.reason ?? ''))).toEqual([]);
      // nginx saw what the suite says it sent (less a request or two it answers itself, e.g. a bad request line).
      const arrivals = nginx.arrivals();
      expect(arrivals.length).toBeGreaterThan(0.95 * politeness.requests);
      // The rest of the run meets the limit rarely; the rate-limit rules' burst provokes it on purpose (its wave
      // of `limit` requests at once meets ~50 refusals, none of them reported as met: they are the rule's).
      expect(politeness.limitedAnswers, JSON.stringify(politeness.reasons)).toBeLessThanOrEqual(30);
      const refused = arrivals.filter((a) => a.status === 429).length;
      expect(refused).toBeLessThanOrEqual(politeness.limitedAnswers + 60);
      if (kind === 'minimal')
        expect(politeness.key?.summary).toMatch(/^key not declared; the target limits per client address/);
    } finally {
      await nginx.stop();
      await mock.close();
    }
  });
}
