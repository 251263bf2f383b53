/**
 * Each fuzz rule can fail, and when it does it says why with a shrunk counterexample: the mock started with
 * one defect mode (docs/defects.md: `alg-none`, `basic-bad-base64-500`, `scheme-case-sensitive`) fails the
 * rule that targets its bug, and the conformant mock passes the same plans.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { UNREACHABLE_RATE_LIMIT } from '../../bench/setups.ts';
import type { DefectName } from '../../mock/defects/registry.ts';
import { type RunningMock, startMock } from '../../mock/server.ts';
import { DEFAULT_FUZZ_CASES, DEFAULT_SEED } from '../../shared/env.ts';
import { createNodeHttpClient } from '../../specs/fuzz/clients/node-http.ts';
import { createRawSocketClient } from '../../specs/fuzz/clients/raw-socket.ts';
import { type PlanEnvironment, type PlanOutcome, runPlan } from '../../specs/fuzz/engine/run-plan.ts';
import type { FuzzSettings } from '../../specs/fuzz/engine/settings.ts';
import { createJwtKit } from '../../specs/fuzz/jwt/kit.ts';
import { legalVariantsPlan, malformedStatusPlan } from '../../specs/fuzz/plans/authorization.ts';
import { planFor } from '../../specs/fuzz/plans/index.ts';
import type { FuzzPlan } from '../../specs/fuzz/plans/types.ts';
import type { Profile } from '../../specs/profile/types.ts';

const profile = JSON.parse(
  readFileSync(new URL('../../fixtures/mock.profile.json', import.meta.url), 'utf8'),
) as Profile;
const user = profile.identities.user;
const algNonePlan = planFor('jwt.attack.alg-none');
// One kit for the file: a minted token carries the time it was made, so a replay must reuse the same kit.
const kit = createJwtKit(profile);

const settings: FuzzSettings = {
  seed: DEFAULT_SEED,
  seedSource: 'default',
  totalCases: DEFAULT_FUZZ_CASES,
  concurrency: 4,
  timeoutMs: 5000,
  replay: undefined,
  client: 'http',
};

/**
 * The mock with `defects` on. Its rate limits are out of reach: a plan sends hundreds of requests (shrinking
 * included) with the user's valid credentials, more than the default 300 per 10 s per identity. Its 500s are
 * the defect's, asserted from the answers: not logged.
 */
async function defective(...defects: DefectName[]): Promise<RunningMock> {
  const mock = await startMock({ port: 0, defects, rateLimit: UNREACHABLE_RATE_LIMIT, onError: () => {} });
  mocks.push(mock);
  return mock;
}

async function run(
  plan: FuzzPlan,
  baseUrl: string,
  overrides: Partial<FuzzSettings> = {},
): Promise<PlanOutcome> {
  const http = createNodeHttpClient({ timeoutMs: 5000, maxSockets: 4 });
  const env: PlanEnvironment = {
    profile,
    baseUrl,
    settings: { ...settings, ...overrides },
    kit,
    clients: { http, raw: createRawSocketClient({ timeoutMs: 5000 }) },
  };
  try {
    return await runPlan(plan, env);
  } finally {
    http.close();
  }
}

function failureOf(
  outcome: PlanOutcome,
): NonNullable<Extract<PlanOutcome, { result: unknown }>['result']['failure']> {
  if ('skipped' in outcome) throw new Error(`skipped: ${outcome.skipped}`);
  const failure = outcome.result.failure;
  if (!failure) throw new Error(`no failure in ${outcome.result.stats.cases} cases`);
  return failure;
}

const mocks: RunningMock[] = [];
test.afterAll(async () => {
  await Promise.all(mocks.map((mock) => mock.close()));
});

test('a target that accepts alg "none" fails jwt.attack.alg-none with the shrunk token', async () => {
  const { url } = await defective('alg-none');
  const failure = failureOf(await run(algNonePlan, url));
  // The letter cases of "none" are sent whole before any draw (specs/fuzz/engine/whole.ts): the first, already
  // the smallest — alg in its plain spelling, the simplest signature (none), claims not escalated — fails.
  expect(failure.exchange.request.kind).toBe('jwt alg-none: alg "none", empty signature');
  expect(failure.path).toBe('whole:0');
  expect(failure.message).toContain('[jwt.attack.alg-none] MUST');
  expect(failure.message).toContain('counterexample (jwt alg-none: alg "none", empty signature)');
  expect(failure.message).toMatch(/Authorization: "Bearer eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\."/);
  expect(failure.message).toContain('actual:   status 200');
  expect(failure.message).toMatch(
    /seed: {5}20261121 \(default; this rule's fast-check seed -?\d+\), path: "whole:0"/,
  );
  expect(failure.message).toMatch(
    /replay: {3}curl -i -sS -X GET 'http:\/\/127\.0\.0\.1:\d+\/protected' -H 'Authorization: Bearer eyJ/,
  );
  expect(failure.message).toContain("GATECHECK_FUZZ_REPLAY='jwt.attack.alg-none:");
  expect(failure.evidence.rule).toBe('jwt.attack.alg-none');
  expect(failure.evidence.response?.status).toBe(200);

  // The printed path replays the counterexample directly.
  const replayed = failureOf(
    await run(algNonePlan, url, { replay: { ruleId: algNonePlan.rule.id, path: failure.path } }),
  );
  expect(replayed.exchange.request).toEqual(failure.exchange.request);
});

test('a target that answers 500 to bad base64 fails fuzz.malformed.status with a short Basic counterexample', async () => {
  const { url } = await defective('basic-bad-base64-500');
  const failure = failureOf(await run(malformedStatusPlan, url));
  expect(failure.message).toContain('[fuzz.malformed.status] MUST');
  expect(failure.message).toContain('expected: status 400 or 401');
  expect(failure.message).toContain('actual:   status 500');
  const line = /\n {4}Authorization: ("[^\n]*")\n/.exec(failure.message)?.[1];
  expect(line, failure.message).toBeDefined();
  const value = JSON.parse(line as string) as string;
  expect(value).toMatch(/^basic /i);
  // Shrunk: a handful of characters, not the dozens a generated case has.
  expect(value.length, value).toBeLessThanOrEqual(16);
  expect(failure.numShrinks).toBeGreaterThan(0);
});

test('a target that matches the scheme name case-sensitively fails fuzz.credential.legal-variants', async () => {
  const basic = Buffer.from(`${user?.basic?.username}:${user?.basic?.password}`, 'utf8').toString('base64');
  const { url } = await defective('scheme-case-sensitive');
  const failure = failureOf(await run(legalVariantsPlan, url));
  expect(failure.message).toContain('[fuzz.credential.legal-variants] MUST');
  expect(failure.message).toMatch(
    /expected: status 200, as for the canonical spelling\n {2}actual: {3}status 401/,
  );
  const line = /\n {4}Authorization: ("[^\n]*")\n/.exec(failure.message)?.[1];
  const value = JSON.parse(line as string) as string;
  // Shrunk to one letter's case changed, one space, no surrounding whitespace; the credential redacted.
  const [scheme = '', rest] = value.split(' ');
  const canonical = scheme.toLowerCase() === 'basic' ? 'Basic' : 'Bearer';
  expect(scheme.toLowerCase()).toBe(canonical.toLowerCase());
  expect(
    [...scheme].filter((c, i) => c !== canonical[i]),
    value,
  ).toHaveLength(1);
  expect(rest).toMatch(/^\S{4}…\[redacted\]$/);
  expect(failure.message).not.toContain(user?.bearer as string);
  expect(failure.message).not.toContain(basic);
});

test('the conformant mock passes the same three plans (the accept branch)', async () => {
  const mock = await startMock({ port: 0 });
  try {
    for (const plan of [algNonePlan, malformedStatusPlan, legalVariantsPlan]) {
      const outcome = await run(plan, mock.url, { totalCases: 600 });
      if ('skipped' in outcome) throw new Error(outcome.skipped);
      expect(outcome.result.failure?.message, plan.rule.id).toBeUndefined();
      expect(outcome.result.stats.cases).toBeGreaterThan(0);
    }
  } finally {
    await mock.close();
  }
});
