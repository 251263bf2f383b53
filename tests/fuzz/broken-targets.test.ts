/**
 * Each fuzz rule can fail, and when it does it says why with a shrunk counterexample: three small broken
 * stand-ins (a server that takes `alg: none`, one that answers 500 to bad base64, one that matches the
 * scheme name case-sensitively) fail the rule that targets their bug, and the conformant mock passes the
 * same plans. The stand-ins are a few lines each; the mock's defect modes (issue 7) can replace them.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { startMock } from '../../mock/server.ts';
import { createNodeHttpClient } from '../../specs/fuzz/clients/node-http.ts';
import { createRawSocketClient } from '../../specs/fuzz/clients/raw-socket.ts';
import { type PlanEnvironment, type PlanOutcome, runPlan } from '../../specs/fuzz/engine/run-plan.ts';
import type { FuzzSettings } from '../../specs/fuzz/engine/settings.ts';
import { createJwtKit } from '../../specs/fuzz/jwt/kit.ts';
import { legalVariantsPlan, malformedStatusPlan } from '../../specs/fuzz/plans/authorization.ts';
import { planFor } from '../../specs/fuzz/plans/index.ts';
import type { FuzzPlan } from '../../specs/fuzz/plans/types.ts';
import { DEFAULT_FUZZ_CASES, DEFAULT_SEED } from '../../specs/lib/env.ts';
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

type Handler = (authorization: string | undefined, req: IncomingMessage, res: ServerResponse) => void;

/** A stand-in target: 401 with a Bearer and a Basic challenge unless `handler` answers otherwise. */
async function standIn(handler: Handler): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    try {
      handler(req.headers.authorization, req, res);
    } catch {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
      return;
    }
    if (!res.headersSent) {
      res
        .writeHead(401, {
          'www-authenticate': 'Bearer realm="stand-in", error="invalid_token", Basic realm="stand-in"',
        })
        .end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
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

const closeAll: Server[] = [];
test.afterAll(() => {
  for (const server of closeAll) server.close();
});

test('a target that accepts alg "none" fails jwt.attack.alg-none with the shrunk token', async () => {
  const { url, server } = await standIn((authorization, _req, res) => {
    const token = /^bearer +(\S+)$/i.exec(authorization ?? '')?.[1];
    const header = token ? JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()) : {};
    if (String(header.alg).toLowerCase() === 'none') res.writeHead(200).end('{"secret":"data"}');
  });
  closeAll.push(server);
  const failure = failureOf(await run(algNonePlan, url));
  // Shrunk: alg in its plain spelling, the simplest signature (none), claims not escalated.
  expect(failure.exchange.request.kind).toBe('jwt alg-none: alg "none", empty signature');
  expect(failure.numShrinks).toBeGreaterThan(0);
  expect(failure.message).toContain('[jwt.attack.alg-none] MUST');
  expect(failure.message).toContain('counterexample (jwt alg-none: alg "none", empty signature)');
  expect(failure.message).toMatch(/Authorization: "Bearer eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\."/);
  expect(failure.message).toContain('actual:   status 200');
  expect(failure.message).toMatch(
    /seed: {5}20261121 \(default; this rule's fast-check seed -?\d+\), path: "[\d:]+"/,
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
  const { url, server } = await standIn((authorization) => {
    const basic = /^basic +(.*)$/i.exec(authorization ?? '');
    if (basic && !/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(basic[1] ?? '')) {
      throw new Error('base64 decoder blew up'); // the bug: an exception instead of a 400
    }
  });
  closeAll.push(server);
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
  const { url, server } = await standIn((authorization, _req, res) => {
    const match = /^(\S+) +(\S+)$/.exec(authorization ?? '');
    const [, scheme, credentials] = match ?? [];
    // The bug: `===` on the scheme name, where RFC 9110 §11.1 says case-insensitive.
    if (
      (scheme === 'Bearer' && credentials === user?.bearer) ||
      (scheme === 'Basic' && credentials === basic)
    ) {
      res.writeHead(200).end('{}');
    }
  });
  closeAll.push(server);
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
