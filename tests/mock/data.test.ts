/**
 * The data: json-server's model over fixtures/db.json, which is never written (docs/design.md "Resources"). Each
 * mock works on its own copy in memory, or on a file the user names for persistence.
 */

import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startMock } from '../../mock/server.ts';
import { ADMIN, authorization, call, fixture } from './mock-support.ts';

const digest = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');
const dirs: string[] = [];
const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
test.afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const admin = { authorization: authorization(ADMIN, 'basic'), 'content-type': 'application/json' };

test('POST, PUT, PATCH and DELETE leave fixtures/db.json byte for byte unchanged', async () => {
  const before = digest(fixture('db.json'));
  const mock = await startMock({ port: 0 });
  try {
    const created = await call(mock.url, 'POST', '/users', { headers: admin, body: '{"name":"Temp"}' });
    expect(created.status).toBe(200);
    const { id } = created.json() as { id: string };
    expect(
      (await call(mock.url, 'PUT', '/users/2', { headers: admin, body: '{"name":"Changed"}' })).status,
    ).toBe(200);
    expect((await call(mock.url, 'PATCH', '/users/3', { headers: admin, body: '{"x":1}' })).status).toBe(200);
    expect((await call(mock.url, 'DELETE', `/users/${id}`, { headers: admin })).status).toBe(200);
    expect((await call(mock.url, 'DELETE', '/users/4', { headers: admin })).status).toBe(200);
  } finally {
    await mock.close();
  }
  expect(digest(fixture('db.json'))).toBe(before);
});

test('two mocks do not share state: a write to one is invisible to the other', async () => {
  const [a, b] = await Promise.all([startMock({ port: 0 }), startMock({ port: 0 })]);
  try {
    expect((await call(a.url, 'DELETE', '/users/5', { headers: admin })).status).toBe(200);
    expect((await call(a.url, 'GET', '/users/5')).status).toBe(404);
    expect((await call(b.url, 'GET', '/users/5')).status).toBe(200);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test('persistPath (--data): created from the seed, written on each change, continued by the next start', async () => {
  const dir = tempDir('gatecheck-data-');
  const state = join(dir, 'state.json');
  const before = digest(fixture('db.json'));

  const first = await startMock({ port: 0, persistPath: state });
  let id: string;
  try {
    expect(existsSync(state)).toBe(true);
    const created = await call(first.url, 'POST', '/users', { headers: admin, body: '{"name":"Kept"}' });
    ({ id } = created.json() as { id: string });
    expect((await call(first.url, 'DELETE', '/users/1', { headers: admin })).status).toBe(200);
  } finally {
    await first.close();
  }
  const saved = JSON.parse(readFileSync(state, 'utf8')) as { users: Array<{ id: string; name: string }> };
  expect(saved.users.map((u) => u.id)).toContain(id);
  expect(saved.users.map((u) => u.id)).not.toContain('1');

  const second = await startMock({ port: 0, persistPath: state });
  try {
    expect((await call(second.url, 'GET', `/users/${id}`)).json()).toMatchObject({ name: 'Kept' });
    expect((await call(second.url, 'GET', '/users/1')).status).toBe(404);
  } finally {
    await second.close();
  }
  expect(digest(fixture('db.json'))).toBe(before);
});

test('numeric ids in a seed are served as strings, like json-server 1.0', async () => {
  const dir = tempDir('gatecheck-seed-');
  const seed = join(dir, 'seed.json');
  writeFileSync(seed, JSON.stringify({ users: [{ id: 7, name: 'Seven' }], protected: {}, admin: {} }));
  const mock = await startMock({ port: 0, dataPath: seed });
  try {
    expect((await call(mock.url, 'GET', '/users/7')).json()).toEqual({ id: '7', name: 'Seven' });
  } finally {
    await mock.close();
  }
  expect(JSON.parse(readFileSync(seed, 'utf8')).users[0].id).toBe(7);
});
