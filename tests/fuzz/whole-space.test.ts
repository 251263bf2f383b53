/**
 * Small attack spaces sent whole (specs/fuzz/engine/whole.ts, issue #68): every case of the catalogue is sent
 * once, in order, before the arbitrary is sampled, and counts in the rule's share; a failure names its case as
 * `whole:<index>`, which a replay sends alone; the kid-injection catalogue is its 64 tokens.
 */
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { DEFAULT_SEED } from '../../shared/env.ts';
import type { Client, Outcome, WireRequest } from '../../specs/fuzz/clients/types.ts';
import { notSuccess } from '../../specs/fuzz/engine/judges.ts';
import { runFuzzProperty } from '../../specs/fuzz/engine/property.ts';
import type { FuzzPropertyOptions } from '../../specs/fuzz/engine/types.ts';
import type { FuzzRequest } from '../../specs/fuzz/request.ts';
import { attackKidInjection } from '../../specs/rules/jwt-attacks.ts';

const CATALOGUE: FuzzRequest[] = Array.from({ length: 20 }, (_, i) => ({
  kind: `case ${i}`,
  authorization: [`Bearer whole-${i}`],
}));

function recorder(answer: (request: WireRequest) => Outcome): Client & { sent: WireRequest[] } {
  const sent: WireRequest[] = [];
  return {
    name: 'recorder',
    sent,
    canSend: () => true,
    send: async (request) => {
      sent.push(request);
      return answer(request);
    },
  };
}

const response = (status: number): Outcome => ({ kind: 'response', status, headers: {}, body: '' });

function options(client: Client, overrides: Partial<FuzzPropertyOptions> = {}): FuzzPropertyOptions {
  return {
    rule: attackKidInjection,
    arbitrary: fc.constant<FuzzRequest>({ kind: 'sampled', authorization: ['Bearer sampled'] }),
    judge: notSuccess,
    target: { baseUrl: 'http://target.invalid', paths: { protected: '/p' }, client, raw: client },
    endpoint: 'protected',
    cases: 50,
    seed: DEFAULT_SEED,
    concurrency: 4,
    whole: CATALOGUE,
    ...overrides,
  };
}

test('the whole catalogue is sent first, then the rest of the share is sampled', async () => {
  const client = recorder(() => response(401));
  const { stats, failure } = await runFuzzProperty(options(client));
  expect(failure).toBeUndefined();
  expect(stats.cases).toBe(50);
  expect(client.sent.slice(0, 20).map((r) => r.authorization[0])).toEqual(
    CATALOGUE.map((c) => c.authorization[0]),
  );
  expect(client.sent.slice(20).every((r) => r.authorization[0] === 'Bearer sampled')).toBe(true);
});

test('a catalogue larger than the share is still sent whole, and nothing is sampled', async () => {
  const client = recorder(() => response(401));
  const { stats } = await runFuzzProperty(options(client, { cases: 5 }));
  expect(stats.cases).toBe(20);
  expect(client.sent.every((r) => r.authorization[0]?.startsWith('Bearer whole-'))).toBe(true);
});

test('the one accepted case of the catalogue fails the rule on every seed, named whole:<index>; its replay sends it alone', async () => {
  const accepts = (r: WireRequest) => response(r.authorization[0] === 'Bearer whole-13' ? 200 : 401);
  for (const seed of [1, 2, 3, 4, 5]) {
    const { failure } = await runFuzzProperty(options(recorder(accepts), { seed }));
    expect(failure?.path).toBe('whole:13');
    expect(failure?.message).toContain('GATECHECK_FUZZ_REPLAY');
  }
  const replay = recorder(accepts);
  const { failure } = await runFuzzProperty(options(replay, { path: 'whole:13' }));
  expect(replay.sent.map((r) => r.authorization[0])).toEqual(['Bearer whole-13']);
  expect(failure?.path).toBe('whole:13');
});

test('no fuzz budget: nothing is sent, the catalogue included', async () => {
  const client = recorder(() => response(401));
  await runFuzzProperty(options(client, { cases: 0 }));
  expect(client.sent).toEqual([]);
});
