/**
 * Against a REAL nginx `limit_req` (Debian's nginx-light, bench/nginx-process.ts) in front of the mock: a leaky
 * bucket per client address with a burst, `nodelay`, 429 without Retry-After or any rate-limit field — started
 * on a free loopback port with a temporary prefix by the test, always stopped; skipped, saying how to install
 * it, where nginx is not there (CI installs it: .ci/run). Compressed in time (60 r/s) so a run takes seconds.
 *
 * The full default catalogue through it: no rule fails, none is skipped for time, the limit is met rarely,
 * and with the minimal profile the politeness section says the target limits per address.
 */
import { request } from 'node:http';
import { expect, test } from '@playwright/test';
import { limiterProfile, SKIPPED_FOR_TIME } from '../../bench/limiters.ts';
import { NGINX_MISSING, startNginx, type TestNginx } from '../../bench/nginx-process.ts';
import { UNREACHABLE_RATE_LIMIT } from '../../bench/setups.ts';
import { type RunningMock, type StartOptions, startMock } from '../../mock/server.ts';
import type { Politeness } from '../../specs/run/politeness.ts';
import { runConformance } from '../helpers/run-suite.ts';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

/**
 * The mock (its own rate limit out of reach) behind nginx `limit_req … nodelay` per address, 429 when limited;
 * the mock is closed again when nginx does not start.
 */
async function mockBehindNginx(
  options: Omit<StartOptions, 'port' | 'rateLimit'>,
  limit: { rate: number; burst: number },
): Promise<{ mock: RunningMock; nginx: TestNginx }> {
  const mock = await startMock({ ...options, port: 0, rateLimit: UNREACHABLE_RATE_LIMIT });
  try {
    const nginx = await startNginx({
      upstream: mock.url,
      limit: { ...limit, nodelay: true, status: 429, key: 'address' },
    });
    return { mock, nginx };
  } catch (e) {
    await mock.close();
    throw e;
  }
}

for (const kind of ['exact', 'minimal'] as const) {
  test(`nginx limit_req 60 r/s burst 10 nodelay per address, ${kind} profile → no failure, no skip for time, the limit met rarely`, async () => {
    test.skip(NGINX_MISSING !== undefined, NGINX_MISSING);
    const { mock, nginx } = await mockBehindNginx({}, { rate: 60, burst: 10 });
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

/** The status of GET /protected sent with the target's own Host line twice. */
function twoHostLines(base: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/protected`, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    const host = new URL(base).host;
    req.setHeader('Host', [host, host]);
    req.on('error', reject);
    req.end();
  });
}

/**
 * RFC 9112 §3.2 through nginx: nginx answers 400 to two Host lines itself, and to a Host with "/" or a space,
 * but passes every other value its own check lets through to the server behind it (`proxy_set_header Host
 * $http_host`): "gatecheck@…", a port that is not digits, a second port, "[" never closed, "[gatecheck]",
 * "%zz", a byte outside ASCII. So the deployment conforms only when the server behind checks the Host too —
 * the rule judges the deployment.
 */
for (const strictHost of [true, false]) {
  test(`nginx in front of a mock ${strictHost ? 'that checks the Host' : "that takes any Host (Node's own leniency)"} → request.400.host-field ${strictHost ? 'passes' : 'fails on a value nginx passed on'}`, async () => {
    test.skip(NGINX_MISSING !== undefined, NGINX_MISSING);
    const { mock, nginx } = await mockBehindNginx({ server: { strictHost } }, { rate: 1000, burst: 100 });
    try {
      const run = await runConformance({
        profile: limiterProfile('nginx', 'exact', 10),
        env: { BASE_URL: nginx.url },
        args: ['--grep', '@rule:request\\.400\\.host-field'],
      });
      const rule = run.rules.find((r) => r.id === 'request.400.host-field');
      if (strictHost) expect(rule?.verdict, rule?.reason).toBe('pass');
      else {
        expect(rule?.verdict, rule?.reason).toBe('fail');
        // The first value nginx does not refuse itself: the server behind served the public path as if it were fine.
        expect(rule?.reason).toContain('(Host: gatecheck@');
        expect(rule?.reason).toContain('got status 200');
        // Two Host lines: nginx answers 400 itself, where the server behind would take them.
        expect(await twoHostLines(nginx.url)).toBe(400);
        expect(await twoHostLines(mock.url)).toBe(401);
      }
    } finally {
      await nginx.stop();
      await mock.close();
    }
  });
}
