/**
 * What the mock keeps between requests so repeated answers cost little, and that none of it answers a request
 * with another request's answer: the serialised collection (until the next write), the refusals built once per
 * route and failure, and the per-address verdicts of the block list and the proxy chain.
 */

import { expect, test } from '@playwright/test';
import { mockForTests } from '../helpers/mock-for-tests.ts';
import {
  ADMIN,
  authorization,
  call,
  challengeSummary,
  expectProblem,
  MALFORMED,
  mint,
} from './mock-support.ts';

const mock = mockForTests();

const names = (text: string): string[] => (JSON.parse(text) as Array<{ name: string }>).map((u) => u.name);

test('GET /users → the same bytes while nothing changes; a POST shows in the next GET, a DELETE leaves it out again', async () => {
  const first = await call(mock.url, 'GET', '/users');
  const again = await call(mock.url, 'GET', '/users');
  expect(again.text).toBe(first.text);

  const bearer = { authorization: authorization(ADMIN, 'bearer'), 'content-type': 'application/json' };
  const created = await call(mock.url, 'POST', '/users', {
    headers: bearer,
    body: JSON.stringify({ name: 'Cache Probe' }),
  });
  expect(created.status).toBe(200);
  const id = created.json().id as string;
  const afterPost = await call(mock.url, 'GET', '/users');
  expect(names(afterPost.text)).toEqual([...names(first.text), 'Cache Probe']);
  expect(afterPost.header('content-length')).toBe(String(Buffer.byteLength(afterPost.text)));

  expect((await call(mock.url, 'DELETE', `/users/${id}`, { headers: bearer })).status).toBe(200);
  expect(names((await call(mock.url, 'GET', '/users')).text)).toEqual(names(first.text));
});

test("401 without credentials, again and again → each route's own challenges, whichever route was answered first", async () => {
  const protectedChallenges = [
    ['bearer', undefined],
    ['basic', undefined],
  ];
  const usersChallenges = [...protectedChallenges, ['apikey', undefined]];
  for (let round = 0; round < 2; round++) {
    const guarded = await call(mock.url, 'GET', '/protected');
    expectProblem(guarded, 401);
    expect(challengeSummary(guarded)).toEqual(protectedChallenges);
    const write = await call(mock.url, 'POST', '/users', { body: '{}' });
    expectProblem(write, 401);
    expect(challengeSummary(write)).toEqual(usersChallenges);
  }
});

test("401 for two tokens expired at different times → each answer names its own token's age, not the first one's", async () => {
  const sub = String((ADMIN.jwtClaims as { sub?: unknown }).sub ?? 'admin');
  const details: string[] = [];
  for (const expiresIn of [-1_000, -2_000, -1_000]) {
    const token = await mint({ sub }, { expiresIn });
    const answer = await call(mock.url, 'GET', '/protected', {
      headers: { authorization: `Bearer ${token}` },
    });
    details.push(String(expectProblem(answer, 401).detail));
  }
  expect(details[0]).toMatch(/expired 1\d{3} s ago/);
  expect(details[1]).toMatch(/expired 2\d{3} s ago/);
  expect(details[2]).toMatch(/expired 1\d{3} s ago/);
});

test('400 for the same malformed credentials twice → the same problem, and the challenge names the scheme tried', async () => {
  const bodies: string[] = [];
  for (let i = 0; i < 2; i++) {
    const answer = await call(mock.url, 'GET', '/protected', { headers: { authorization: MALFORMED.basic } });
    expectProblem(answer, 400);
    bodies.push(answer.text);
    expect(challengeSummary(answer)).toEqual([
      ['bearer', undefined],
      ['basic', undefined],
    ]);
  }
  expect(bodies[1]).toBe(bodies[0]);
  const bearer = await call(mock.url, 'GET', '/protected', { headers: { authorization: MALFORMED.bearer } });
  expect(challengeSummary(bearer)).toEqual([
    ['bearer', 'invalid_request'],
    ['basic', undefined],
  ]);
});

test('X-Forwarded-For from the trusted loopback proxy → a blocked address stays 403 between requests of the loopback client itself (200)', async () => {
  const blocked = { 'x-forwarded-for': '192.0.2.10' };
  for (let round = 0; round < 2; round++) {
    expectProblem(await call(mock.url, 'GET', '/users', { headers: blocked }), 403);
    expect((await call(mock.url, 'GET', '/users')).status).toBe(200);
    expect(
      (await call(mock.url, 'GET', '/users', { headers: { 'x-forwarded-for': '198.51.100.7' } })).status,
    ).toBe(200);
  }
});
