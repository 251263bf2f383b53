/**
 * A failed fuzz rule shows every failing class, not one counterexample (specs/fuzz/engine/classes.ts): a
 * target that refuses a scheme followed by several spaces *and* a scheme in another letter case fails
 * fuzz.credential.legal-variants in two classes; the report names both, each with a counterexample of its own
 * class and a replay line, and counts them — where one shrunk counterexample showed only one of them.
 */
import { expect, test } from '@playwright/test';
import { DEFAULT_SEED } from '../../shared/env.ts';
import {
  type CanonicalCredential,
  respellingClass,
  validCredentialVariant,
} from '../../specs/fuzz/arbitraries/validCredentialVariant.ts';
import type { Client, Outcome, WireRequest } from '../../specs/fuzz/clients/types.ts';
import { sameStatusAs } from '../../specs/fuzz/engine/judges.ts';
import { runFuzzProperty } from '../../specs/fuzz/engine/property.ts';
import { resetRateLimitMemory } from '../../specs/fuzz/engine/rate-limit.ts';
import type { FuzzRequest } from '../../specs/fuzz/request.ts';
import { fuzzLegalVariants } from '../../specs/rules/fuzz.ts';

const canonical: CanonicalCredential = { scheme: 'Bearer', credentials: 'gatecheck-token' };
const kind = 'validCredentialVariant:bearer';

/** 200 for the canonical spelling and its surrounding whitespace; 401 for several spaces; 400 for another case. */
function broken(): Client & { sent: WireRequest[] } {
  const sent: WireRequest[] = [];
  return {
    name: 'broken',
    sent,
    canSend: () => true,
    send: async (request): Promise<Outcome> => {
      sent.push(request);
      const value = (request.authorization[0] ?? '').replace(/^[ \t]+|[ \t]+$/g, '');
      const status = /^Bearer /.test(value) ? (/^Bearer {2}/.test(value) ? 401 : 200) : 400;
      return { kind: 'response', status, headers: {}, body: '' };
    },
  };
}

test.beforeEach(() => resetRateLimitMemory());

test('two failing classes of legal respellings: both shown, each with its own counterexample and replay line, and counted', async () => {
  const client = broken();
  const { failure, stats } = await runFuzzProperty({
    rule: fuzzLegalVariants,
    arbitrary: validCredentialVariant(canonical).map(
      (value): FuzzRequest => ({ kind, authorization: [value] }),
    ),
    judge: sameStatusAs({ [kind]: 200 }),
    classify: (request) => `${request.kind}: ${respellingClass(canonical, request.authorization[0] ?? '')}`,
    target: { baseUrl: 'http://target.invalid', paths: { protected: '/p' }, client, raw: client },
    endpoint: 'protected',
    cases: 300,
    seed: DEFAULT_SEED,
    concurrency: 4,
  });
  expect(failure).toBeDefined();
  const message = failure?.message ?? '';
  // Both classes named, whichever the first counterexample shrank to.
  expect(message).toMatch(/several spaces → 401/);
  expect(message).toMatch(/scheme letter case → 400/);
  expect(message).toMatch(/failing classes: \d+ \(generator kind → answer\)/);
  // Each extra class with a counterexample of its own class and a replay line.
  const extra = message.split('\n').filter((line) => /^ {2}class \d+: /.test(line));
  expect(extra.length).toBeGreaterThanOrEqual(1);
  expect(message.split('\n').filter((line) => /^ {4}replay: {3}\S/.test(line)).length).toBe(extra.length);
  expect(failure?.classes?.length).toBeGreaterThanOrEqual(2);
  // The sweep stays within the rule's share, plus each class's shrink budget.
  expect(stats.cases + (stats.sweepCases ?? 0)).toBeLessThanOrEqual(300 + 6 * (300 + 32));
});

test('a target failing in one class only: one class, no extra lines', async () => {
  const client = broken();
  const { failure } = await runFuzzProperty({
    rule: fuzzLegalVariants,
    // Only the scheme's letter case varies: one failing class.
    arbitrary: validCredentialVariant(canonical)
      .map((value) => value.replace(/^[ \t]+|[ \t]+$/g, '').replace(/ +/, ' '))
      .map((value): FuzzRequest => ({ kind, authorization: [value] })),
    judge: sameStatusAs({ [kind]: 200 }),
    classify: (request) => `${request.kind}: ${respellingClass(canonical, request.authorization[0] ?? '')}`,
    target: { baseUrl: 'http://target.invalid', paths: { protected: '/p' }, client, raw: client },
    endpoint: 'protected',
    cases: 200,
    seed: DEFAULT_SEED,
    concurrency: 4,
  });
  expect(failure?.message).toMatch(
    /failing classes: 1 \(generator kind → answer\): \S+ scheme letter case → 400/,
  );
  expect(failure?.message).not.toMatch(/^ {2}class 2:/m);
});
