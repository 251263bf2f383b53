/**
 * 500 (seed §7 "Related status codes"; RFC 9110 §15.6.1): an unexpected condition anywhere in the pipeline
 * is answered with problem+json without a stack trace, and the process keeps serving.
 * The fault is injected through the programmatic `engine` and `authenticator` options.
 */

import { expect, test } from '@playwright/test';
import type { Authenticator } from '../../mock/auth/types.ts';
import type { ResourceEngine } from '../../mock/resources/types.ts';
import { type RunningMock, startMock } from '../../mock/server.ts';
import { ADMIN, authorization, call, expectProblem, SCHEMES } from './mock-support.ts';

const SECRET_MESSAGE = 'database exploded at /srv/secret/path.js:12:34 with password hunter2';

/** The real engine can't be asked to fail, so this one can: it answers like json-server until told not to. */
function faultyEngine(state: { failing: boolean }): ResourceEngine {
  const users = [{ id: '1', name: 'Only' }];
  const fail = (): never => {
    const error = new Error(SECRET_MESSAGE);
    throw error;
  };
  let reads = 0;
  return {
    // A new version on every read: the serialisation cache never holds an answer, so each GET reaches list().
    get version() {
      return ++reads;
    },
    kindOf: (name) =>
      name === 'users' ? 'collection' : name === 'protected' || name === 'admin' ? 'singular' : undefined,
    list: (name) => (state.failing ? fail() : name === 'users' ? users : { message: name }),
    read: (_name, id) => (state.failing ? fail() : users.find((u) => u.id === id)),
    create: async (_name, body) => (state.failing ? fail() : { ...body, id: '2' }),
    replace: async () => fail(),
    patch: () => Promise.reject(new TypeError(SECRET_MESSAGE)),
    remove: async () => {
      throw 'a thrown string, not an Error';
    },
    close: async () => undefined,
  };
}

const state = { failing: true };
const errors: unknown[] = [];
let mock: RunningMock;
let authFails: RunningMock;

test.beforeAll(async () => {
  mock = await startMock({ port: 0, engine: faultyEngine(state), onError: (error) => errors.push(error) });
  const broken: Authenticator = { authenticate: () => Promise.reject(new Error(SECRET_MESSAGE)) };
  authFails = await startMock({ port: 0, authenticator: broken, onError: () => undefined });
});
test.afterAll(async () => {
  await mock?.close();
  await authFails?.close();
});

function expectInternal(answer: Awaited<ReturnType<typeof call>>): void {
  const body = expectProblem(answer, 500);
  expect(body.type).toBe('urn:gatecheck:problem:internal-error');
  expect(answer.text).not.toContain('hunter2');
  expect(answer.text).not.toContain('/srv/secret');
  expect(answer.text).not.toContain('exploded');
  expect(answer.text).not.toMatch(/\n\s+at /);
}

test('GET /users when the data engine throws synchronously → 500 problem+json without a stack', async () => {
  state.failing = true;
  expectInternal(await call(mock.url, 'GET', '/users'));
  expectInternal(await call(mock.url, 'GET', '/users/1'));
  expectInternal(await call(mock.url, 'GET', '/users?name=x'));
  expect(errors.some((e) => e instanceof Error && e.message === SECRET_MESSAGE)).toBe(true);
});

for (const scheme of SCHEMES) {
  test(`a write with the admin's ${scheme} credentials whose engine promise rejects (Error, TypeError, a thrown string) → 500`, async () => {
    const auth = { authorization: authorization(ADMIN, scheme), 'content-type': 'application/json' };
    expectInternal(await call(mock.url, 'PUT', '/users/1', { headers: auth, body: '{"name":"x"}' }));
    expectInternal(await call(mock.url, 'PATCH', '/users/1', { headers: auth, body: '{"name":"x"}' }));
    expectInternal(await call(mock.url, 'DELETE', '/users/1', { headers: auth }));
  });
}

test('HEAD /users when the engine throws → 500 without a body', async () => {
  state.failing = true;
  const head = await call(mock.url, 'HEAD', '/users');
  expect(head.status).toBe(500);
  expect(head.text).toBe('');
});

test('after 500s the same process answers normally once the fault is gone', async () => {
  state.failing = true;
  expect((await call(mock.url, 'GET', '/users')).status).toBe(500);
  state.failing = false;
  const answer = await call(mock.url, 'GET', '/users');
  expect(answer.status).toBe(200);
  expect(answer.json()).toEqual([{ id: '1', name: 'Only' }]);
  state.failing = true;
});

test('an authenticator that rejects → 500 on protected routes; public routes are untouched', async () => {
  expectInternal(
    await call(authFails.url, 'GET', '/protected', { headers: { authorization: 'Bearer abc' } }),
  );
  expectInternal(await call(authFails.url, 'GET', '/admin'));
  expect((await call(authFails.url, 'GET', '/users')).status).toBe(200);
});

test('many concurrent failing requests do not take the process down', async () => {
  state.failing = true;
  const answers = await Promise.all(Array.from({ length: 50 }, () => call(mock.url, 'GET', '/users')));
  expect(answers.every((a) => a.status === 500)).toBe(true);
  state.failing = false;
  expect((await call(mock.url, 'GET', '/users')).status).toBe(200);
});
