/**
 * Fault injection (seed §7, 500 "unexpected condition"; WireMock-style latency and dropped connections): by
 * the X-Gatecheck-Fault header, by configured rules with a seeded probability, and through the control API.
 */

import { expect, test } from '@playwright/test';
import type { RunningMock } from '../../../mock/server.ts';
import { ADMIN, authorization, call, expectNoLeak, expectProblem, PROFILE } from '../mock-support.ts';
import { control, controlJson, mockPerTest } from './control-support.ts';

const admin = authorization(ADMIN, 'bearer');
const start = mockPerTest();

const faulty = (mock: RunningMock, value: string, path = '/protected') =>
  call(mock.url, 'GET', path, { headers: { authorization: admin, 'x-gatecheck-fault': value } });

test('X-Gatecheck-Fault: 500 (the mock profile’s fault trigger) → 500 problem+json without stack trace or credential; journaled as fault_injected', async () => {
  const mock = await start();
  const trigger = PROFILE.fault;
  expect(trigger?.headers).toEqual({ 'X-Gatecheck-Fault': '500' });
  const answer = await call(mock.url, trigger?.method ?? 'GET', trigger?.path ?? '', {
    headers: { authorization: admin, ...trigger?.headers },
  });
  const body = expectProblem(answer, 500);
  expect(body.detail).toContain('fault injected by X-Gatecheck-Fault');
  expectNoLeak(answer.text);
  expect(answer.text).not.toContain(ADMIN.bearer.slice(-20));
  const [entry] = (
    (await controlJson(mock, 'GET', '/journal')) as { entries: Array<Record<string, unknown>> }
  ).entries;
  expect(entry).toMatchObject({ status: 500, outcome: 'fault_injected', identity: 'alice' });
  // The checks before still apply: no credentials → 401, not 500.
  expect(
    (await call(mock.url, 'GET', '/protected', { headers: { 'x-gatecheck-fault': '500' } })).status,
  ).toBe(401);
});

test('X-Gatecheck-Fault: latency=<ms> delays the normal answer; drop closes the connection without one', async () => {
  const mock = await start();
  const t0 = performance.now();
  const slow = await faulty(mock, 'latency=300');
  expect(slow.status).toBe(200);
  expect(performance.now() - t0).toBeGreaterThanOrEqual(290);

  const t1 = performance.now();
  const slowError = await faulty(mock, 'latency=150, 500');
  expect(slowError.status).toBe(500);
  expect(performance.now() - t1).toBeGreaterThanOrEqual(140);

  await expect(faulty(mock, 'drop')).rejects.toThrow(/socket hang up|ECONNRESET/);
  const entries = (
    (await controlJson(mock, 'GET', '/journal')) as { entries: Array<Record<string, unknown>> }
  ).entries;
  expect(entries.at(-1)).toMatchObject({ status: 0, outcome: 'fault_injected' });
  expect(entries.at(-1)?.reason).toContain('connection dropped');
  // The mock is fine afterwards.
  expect((await faulty(mock, 'latency=0')).status).toBe(200);
});

test('an unreadable X-Gatecheck-Fault → 400 naming the header; with the header switched off it is ignored', async () => {
  const mock = await start();
  const bad = await faulty(mock, 'explode');
  expect(expectProblem(bad, 400).detail).toContain('X-Gatecheck-Fault');
  const off = await start({ faults: { header: false } });
  expect((await faulty(off, '500')).status).toBe(200);
});

test('configured rules with a probability and a seed → the same requests get the same faults on every run', async () => {
  const options = {
    faults: { seed: 42, rules: [{ kind: 'error' as const, route: '/users', probability: 0.3 }] },
  };
  const run = async (): Promise<number[]> => {
    const mock = await start(options);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await call(mock.url, 'GET', '/users')).status);
    // Other routes are untouched.
    expect((await call(mock.url, 'GET', '/protected', { headers: { authorization: admin } })).status).toBe(
      200,
    );
    return statuses;
  };
  const first = await run();
  const second = await run();
  expect(second).toEqual(first);
  const faults = first.filter((s) => s === 500).length;
  expect(faults).toBeGreaterThan(0);
  expect(faults).toBeLessThan(30);
  const other = await start({ faults: { seed: 7, rules: options.faults.rules } });
  const third: number[] = [];
  for (let i = 0; i < 30; i++) third.push((await call(other.url, 'GET', '/users')).status);
  expect(third).not.toEqual(first);
});

test('faults set through the control API: the next N requests to a route fail, then it answers again; DELETE clears them', async () => {
  const mock = await start();
  const set = await controlJson(mock, 'PUT', '/faults', {
    rules: [{ kind: 'error', route: '/users/:id', methods: ['GET'], times: 2 }],
  });
  expect(set.rules).toEqual([expect.objectContaining({ kind: 'error', route: '/users/:id', left: 2 })]);
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) statuses.push((await call(mock.url, 'GET', '/users/1')).status);
  expect(statuses).toEqual([500, 500, 200]);
  expect((await call(mock.url, 'GET', '/users')).status).toBe(200);

  await controlJson(mock, 'PUT', '/faults', {
    rules: [
      { kind: 'latency', latencyMs: 200 },
      { kind: 'drop', route: '/admin' },
    ],
  });
  const t0 = performance.now();
  expect((await call(mock.url, 'GET', '/users')).status).toBe(200);
  expect(performance.now() - t0).toBeGreaterThanOrEqual(190);
  await expect(call(mock.url, 'GET', '/admin', { headers: { authorization: admin } })).rejects.toThrow();

  const cleared = await controlJson(mock, 'DELETE', '/faults');
  expect(cleared.rules).toEqual([]);
  expect((await call(mock.url, 'GET', '/admin', { headers: { authorization: admin } })).status).toBe(200);
  expectProblem(await control(mock, 'PUT', '/faults', { rules: [{ kind: 'error', probability: 2 }] }), 400);
});
