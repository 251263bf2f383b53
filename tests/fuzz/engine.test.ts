/**
 * The fuzz engine's own contract: settings from the environment, the split of cases between rules,
 * determinism under a seed, rate limiting counted as unjudged rather than failed, dropped connections
 * caught, and the raw socket putting octets on the wire that no HTTP library sends.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { startMock } from '../../mock/server.ts';
import { DEFAULT_FUZZ_CASES, DEFAULT_SEED } from '../../shared/env.ts';
import { malformedAuthorizationCase } from '../../specs/fuzz/arbitraries/malformedAuthorizationCase.ts';
import { createNodeHttpClient } from '../../specs/fuzz/clients/node-http.ts';
import { createPlaywrightClient } from '../../specs/fuzz/clients/playwright.ts';
import { createRawSocketClient } from '../../specs/fuzz/clients/raw-socket.ts';
import type { Client, Outcome, WireRequest } from '../../specs/fuzz/clients/types.ts';
import { noServerError, statusIn } from '../../specs/fuzz/engine/judges.ts';
import { runFuzzProperty } from '../../specs/fuzz/engine/property.ts';
import { resetRateLimitMemory } from '../../specs/fuzz/engine/rate-limit.ts';
import { jsonBytes, rawReplay, replayLine } from '../../specs/fuzz/engine/replay.ts';
import { runPlan } from '../../specs/fuzz/engine/run-plan.ts';
import {
  casesFor,
  DEFAULT_PACED_RUN_SECONDS,
  FUZZ_REPLAY_ENV,
  fuzzSettings,
  ruleSeed,
} from '../../specs/fuzz/engine/settings.ts';
import { sizeToPace } from '../../specs/fuzz/engine/sizing.ts';
import type { FuzzPropertyOptions } from '../../specs/fuzz/engine/types.ts';
import { no5xxPlan } from '../../specs/fuzz/plans/authorization.ts';
import { FUZZ_WEIGHTS, fuzzPlans } from '../../specs/fuzz/plans/index.ts';
import type { Profile } from '../../specs/profile/types.ts';
import { fuzzMalformedStatus, fuzzNo5xx } from '../../specs/rules/fuzz.ts';

const profile: Profile = {
  name: 't',
  endpoints: { protected: { path: '/p' } },
  identities: {},
  budget: { concurrency: 16 },
};

/** A client that records what it is asked to send and answers from `answer`. */
function recorder(answer: (request: WireRequest, n: number) => Outcome): Client & { sent: WireRequest[] } {
  const sent: WireRequest[] = [];
  return {
    name: 'recorder',
    sent,
    canSend: () => true,
    send: async (request) => answer(request, sent.push(request)),
  };
}

function options(client: Client, overrides: Partial<FuzzPropertyOptions> = {}): FuzzPropertyOptions {
  return {
    rule: fuzzMalformedStatus,
    arbitrary: malformedAuthorizationCase(),
    judge: statusIn([400, 401]),
    target: { baseUrl: 'http://target.invalid', paths: { protected: '/p' }, client, raw: client },
    endpoint: 'protected',
    cases: 200,
    seed: DEFAULT_SEED,
    concurrency: 4,
    ...overrides,
  };
}

const response = (status: number): Outcome => ({ kind: 'response', status, headers: {}, body: '' });

test.describe('settings', () => {
  test('defaults: the fixed seed, DEFAULT_FUZZ_CASES, the profile’s concurrency split between workers', () => {
    const s = fuzzSettings(profile, 2, {});
    expect(s).toMatchObject({
      seed: DEFAULT_SEED,
      seedSource: 'default',
      totalCases: DEFAULT_FUZZ_CASES,
      concurrency: 8,
      replay: undefined,
    });
  });

  test('GATECHECK_SEED, GATECHECK_BUDGET and the replay variable override; maxRequests caps the cases', () => {
    const s = fuzzSettings({ ...profile, budget: { maxRequests: 500 } }, 1, {
      GATECHECK_SEED: '42',
      GATECHECK_BUDGET: '9000',
      [FUZZ_REPLAY_ENV]: 'fuzz.no-5xx:3:1:0',
    });
    expect(s).toMatchObject({
      seed: 42,
      seedSource: 'GATECHECK_SEED',
      // The whole run sends at most 500: a quarter stays for the conformance checks.
      totalCases: 375,
      replay: { ruleId: 'fuzz.no-5xx', path: '3:1:0' },
    });
  });

  test('a bad value is refused with the variable’s name', () => {
    expect(() => fuzzSettings(profile, 1, { GATECHECK_SEED: 'abc' })).toThrow(
      /GATECHECK_SEED must be an integer/,
    );
    expect(() => fuzzSettings(profile, 1, { GATECHECK_BUDGET: '-1' })).toThrow(/GATECHECK_BUDGET/);
    expect(() => fuzzSettings(profile, 1, { [FUZZ_REPLAY_ENV]: 'no-colon' })).toThrow(
      /GATECHECK_FUZZ_REPLAY/,
    );
  });

  test('the default budget sized to a declared pace: about a five-minute run at 60 per 10 s, whatever the key says but identity; a chosen budget stands', () => {
    const limited = (key?: 'address' | 'endpoint' | 'identity') => ({
      ...profile,
      rateLimit: { limit: 60, windowSeconds: 10, ...(key === undefined ? {} : { key }) },
    });
    // 5.4 requests/s × 270 s, less what the checks send: ≈ 850 fuzz cases.
    for (const key of ['address', 'endpoint', undefined] as const) {
      const s = fuzzSettings(limited(key), 2, {});
      expect(s.totalCases, String(key)).toBe(Math.floor(5.4 * DEFAULT_PACED_RUN_SECONDS - 600));
      expect(s.depth).toMatch(
        /the declared limit \(60 per 10 s, paced at 5\.4 requests\/s\) in a default run of about 5 min/,
      );
    }
    // Per identity the fuzz cases (credentials of no identity) are not paced by it.
    expect(fuzzSettings(limited('identity'), 2, {}).totalCases).toBe(DEFAULT_FUZZ_CASES);
    // --budget is the user's choice: only budget.maxSeconds caps it (60 % of it at the pace).
    expect(fuzzSettings(limited('address'), 2, { GATECHECK_BUDGET: '3000' }).totalCases).toBe(3000);
    expect(
      fuzzSettings({ ...limited('address'), budget: { maxSeconds: 600 } }, 2, { GATECHECK_BUDGET: '3000' })
        .totalCases,
    ).toBe(Math.floor(5.4 * 600 * 0.6 - 600));
  });

  test('a rule’s cases sized to the pace in force: kept when they fit its time, cut to what fits, skipped before it starts below its minimum', () => {
    expect(sizeToPace(200, undefined, 1000)).toEqual({ cases: 200, needsMs: 0 });
    expect(sizeToPace(200, 5, 60_000)).toEqual({ cases: 200, needsMs: 40_000 });
    expect(sizeToPace(200, 5, 20_000)).toMatchObject({
      cases: 90,
      note: '90 of 200 planned cases: its share of budget.maxSeconds (20 s) at the pace in force for its requests (5 requests/s)',
    });
    expect(sizeToPace(200, 0.2, 30_000)).toEqual({
      skip: 'its share of budget.maxSeconds (30 s) at the pace in force for its requests (0.2 requests/s) affords 5 of its 200 cases, fewer than its minimum of 10; needs ≈ 1000 s (raise budget.maxSeconds)',
    });
  });

  test('the cases split between every fuzz rule by weight, summing to the budget', () => {
    const total = Object.keys(FUZZ_WEIGHTS).reduce(
      (sum, id) => sum + casesFor(id, DEFAULT_FUZZ_CASES, FUZZ_WEIGHTS),
      0,
    );
    expect(Math.abs(total - DEFAULT_FUZZ_CASES)).toBeLessThanOrEqual(Object.keys(FUZZ_WEIGHTS).length);
    expect(ruleSeed(1, 'a')).not.toBe(ruleSeed(1, 'b'));
  });
});

test.describe('running a property', () => {
  test.beforeEach(() => resetRateLimitMemory());
  test.afterAll(() => resetRateLimitMemory());

  test('the same seed sends the same requests; another seed sends others; the share is exact', async () => {
    const runs = await Promise.all(
      [DEFAULT_SEED, DEFAULT_SEED, DEFAULT_SEED + 1].map(async (seed) => {
        const client = recorder(() => response(400));
        const { stats } = await runFuzzProperty(options(client, { seed }));
        expect(stats.cases).toBe(200);
        return client.sent.map((r) => JSON.stringify(r.authorization));
      }),
    );
    expect(runs[0]?.length).toBe(200);
    expect(new Set(runs[0])).toEqual(new Set(runs[1]));
    expect(runs[2]).not.toEqual(runs[0]);
  });

  test('429, and 403 once a 429 was seen, are counted as unjudged, not as failures', async () => {
    const client = recorder((_r, n) => response(n % 3 === 0 ? 429 : n % 3 === 1 ? 403 : 401));
    const { stats, failure } = await runFuzzProperty(options(client));
    expect(failure).toBeUndefined();
    expect(stats.unjudged['rate limited (429)']).toBeGreaterThan(0);
    expect(stats.unjudged['403 after a 429 (seed §8 ban)']).toBeGreaterThan(0);
  });

  test('a 403 without any 429 before it is a failure; with Retry-After it is a rate-limit block', async () => {
    const { failure } = await runFuzzProperty(options(recorder(() => response(403))));
    expect(failure?.actual).toBe('status 403');
    const blocked = recorder(
      (): Outcome => ({ kind: 'response', status: 403, headers: { 'retry-after': '30' }, body: '' }),
    );
    const { stats, failure: none } = await runFuzzProperty(options(blocked));
    expect(none).toBeUndefined();
    expect(stats.unjudged['403 with Retry-After (seed §8 block)']).toBe(200);
  });

  test('shrinking stops at its request budget and keeps the smallest failure found', async () => {
    const client = recorder(() => response(500));
    const { stats, failure } = await runFuzzProperty(options(client, { maxShrinkCases: 10 }));
    expect(failure).toBeDefined();
    expect(stats.shrinkCases).toBeLessThanOrEqual(10 + 32);
  });

  test('no answer within timeoutMs is no verdict: unjudged, never a 5xx failure; a reset connection still is one', async () => {
    // Every third case gets no answer in time; the rest answer 401.
    const slow = recorder((_r, n) =>
      n % 3 === 0
        ? { kind: 'dropped', error: 'no complete response within 5000 ms', timedOut: true }
        : response(401),
    );
    const result = await runFuzzProperty(options(slow, { rule: fuzzNo5xx, judge: noServerError, cases: 60 }));
    expect(result.failure).toBeUndefined();
    expect(result.stats.unjudged['no answer within budget.timeoutMs']).toBe(20);
    const reset = recorder((_r, n) => (n === 5 ? { kind: 'dropped', error: 'ECONNRESET' } : response(401)));
    const failed = await runFuzzProperty(
      options(reset, { rule: fuzzNo5xx, judge: noServerError, cases: 60 }),
    );
    expect(failed.failure?.actual).toMatch(/no response: ECONNRESET/);
  });

  test('a target that answers nothing at all is a failed precondition, not a 5xx', async () => {
    const http = createNodeHttpClient({ timeoutMs: 2000, maxSockets: 2 });
    const outcome = await runPlan(no5xxPlan, {
      profile,
      baseUrl: 'http://127.0.0.1:9',
      settings: fuzzSettings(profile, 1, {}),
      kit: { unavailable: 'no token in this profile' },
      clients: { http, raw: createRawSocketClient({ timeoutMs: 2000 }) },
    });
    http.close();
    expect('skipped' in outcome && outcome.skipped).toMatch(
      /^the target did not answer a request without Authorization on the protected path \(ECONNREFUSED\)$/,
    );
  });

  test('every plan whose endpoint the profile lacks is skipped with that reason, before any request', async () => {
    const http = recorder(() => response(200));
    const { protected: _omitted, ...endpoints } = profile.endpoints;
    const lacking: Profile = { ...profile, endpoints };
    for (const plan of fuzzPlans.filter((p) => p.endpoint === 'protected')) {
      const outcome = await runPlan(plan, {
        profile: lacking,
        baseUrl: 'http://127.0.0.1:9',
        settings: fuzzSettings(lacking, 1, {}),
        kit: { unavailable: 'no token in this profile' },
        clients: { http, raw: http },
      });
      expect('skipped' in outcome && outcome.skipped, plan.rule.id).toBe(
        'profile lacks endpoints.protected: no protected path to fuzz',
      );
    }
    expect(http.sent).toEqual([]);
  });

  test('a connection dropped without an answer fails fuzz.no-5xx', async () => {
    const server = createServer((req) => {
      if (
        /[^\x20-\x7e]/.test(req.headers.authorization ?? '') ||
        (req.headers.authorization ?? '').includes('@')
      )
        req.socket.destroy();
      else req.socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const raw = createRawSocketClient({ timeoutMs: 3000 });
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { failure } = await runFuzzProperty(
        options(raw, {
          rule: fuzzNo5xx,
          judge: noServerError,
          target: { baseUrl: url, paths: { protected: '/p' }, client: raw, raw },
        }),
      );
      expect(failure?.expected).toBe('an HTTP response (a 4xx for bad input)');
      expect(failure?.actual).toMatch(/^no response: /);
    } finally {
      server.close();
    }
  });
});

test.describe('the raw socket', () => {
  test('CR, LF, NUL and obs-text reach the target, and its answer is read', async () => {
    const mock = await startMock({ port: 0 });
    try {
      const raw = createRawSocketClient({ timeoutMs: 3000 });
      const url = `${mock.url}/protected`;
      for (const value of [
        'Bearer ab\rcd',
        'Bearer ab\ncd',
        'Bearer ab\0cd',
        'Bearer ab\xffcd',
        'Bearer a\r\nX-Injected: 1',
      ]) {
        const outcome = await raw.send({ method: 'GET', url, authorization: [value] });
        expect(outcome.kind, JSON.stringify(value)).toBe('response');
        if (outcome.kind === 'response') expect([400, 401], JSON.stringify(value)).toContain(outcome.status);
      }
      const two = await raw.send({ method: 'GET', url, authorization: ['Bearer a', 'Bearer b'] });
      expect(two.kind === 'response' && two.status).toBe(400);
    } finally {
      await mock.close();
    }
  });

  test('fetch-unsendable values are really unsendable by fetch (why the raw socket exists)', async () => {
    for (const value of ['Bearer a\r\nb', 'Bearer a\0b']) {
      await expect(fetch('http://127.0.0.1:9/', { headers: { authorization: value } })).rejects.toThrow();
    }
  });
});

test.describe('replay lines', () => {
  const at = (authorization: string[]) => ({ method: 'GET', url: 'http://127.0.0.1:8080/p', authorization });

  test('curl for a plain one-line value; the raw request for octets, duplicates or surrounding whitespace', () => {
    expect(replayLine(at(['Basic -AAA']))).toBe(
      "curl -i -sS -X GET 'http://127.0.0.1:8080/p' -H 'Authorization: Basic -AAA'",
    );
    expect(replayLine(at(['']))).toBe("curl -i -sS -X GET 'http://127.0.0.1:8080/p' -H 'Authorization;'");
    for (const lines of [['Bearer a\rb'], ['Bearer \xff'], [' Bearer a'], ['Bearer a', 'Bearer b']]) {
      expect(replayLine(at(lines))).toMatch(/^printf '.*' \| nc 127\.0\.0\.1 8080$/);
    }
  });

  test('the raw replay escapes octets for printf and JSON shows them escaped', () => {
    const line = rawReplay(at(["Bearer a\rb\0c\xff'd%e\\f"]));
    expect(line).toContain("Authorization: Bearer a\\rb\\000c\\377'\\''d%%e\\\\f\\r\\n\\r\\n' | nc");
    expect(jsonBytes('a\r\0\xff\x7f')).toBe('"a\\r\\u0000\\u00ff\\u007f"');
  });
});

test.describe('client choice', () => {
  test('each client says which octets it sends exactly; the raw socket takes the rest', () => {
    const at = (authorization: string[]) => ({ method: 'GET', url: 'http://127.0.0.1:1/p', authorization });
    const http = createNodeHttpClient({ timeoutMs: 1000, maxSockets: 1 });
    // canSend never touches the context, so a stand-in object is enough here.
    const playwright = createPlaywrightClient({} as APIRequestContext, { timeoutMs: 1000 });
    const raw = createRawSocketClient({ timeoutMs: 1000 });
    const cases: [string[], boolean, boolean][] = [
      [['Bearer abc'], true, true],
      [[''], true, true],
      [[' Bearer abc'], true, false],
      [['Bearer \xff'], true, false],
      [['Bearer a', 'Bearer b'], true, false],
      [['Bearer a\r\nb'], false, false],
      [['Bearer a\0b'], false, false],
    ];
    for (const [lines, byHttp, byPlaywright] of cases) {
      expect(http.canSend(at(lines)), JSON.stringify(lines)).toBe(byHttp);
      expect(playwright.canSend(at(lines)), JSON.stringify(lines)).toBe(byPlaywright);
      expect(raw.canSend(at(lines))).toBe(true);
    }
    http.close();
  });
});
