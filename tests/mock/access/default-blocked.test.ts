/**
 * The mock's default access settings and policy give a client on loopback a way to appear blocked (seed §7
 * 403 causes 2 and 5), as the bundled profile's `blocked` declares (docs/profile.md): a trusted loopback proxy,
 * the blocked documentation range 192.0.2.0/24, the blocked country ZZ, and `GET /archive` closed — while the
 * same credentials as another client are served.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startMock } from '../../../mock/server.ts';
import { mockForTests } from '../../helpers/mock-for-tests.ts';
import { call, expectProblem, PROFILE, USER } from '../mock-support.ts';

const asUser = { authorization: `Bearer ${USER.bearer}` };
const mock = mockForTests({ host: '127.0.0.1' });

const get = (path: string, headers: Record<string, string>) => call(mock.url, 'GET', path, { headers });

test('by default, X-Forwarded-For 192.0.2.10 from loopback → 403 ip_blocked; 198.51.100.10 → 200; no header → 200', async () => {
  expect(
    expectProblem(await get('/protected', { ...asUser, 'x-forwarded-for': '192.0.2.10' }), 403).code,
  ).toBe('ip_blocked');
  expect((await get('/protected', { ...asUser, 'x-forwarded-for': '2001:db8:b10c::1' })).status).toBe(403);
  expect((await get('/protected', { ...asUser, 'x-forwarded-for': '198.51.100.10' })).status).toBe(200);
  expect((await get('/protected', asUser)).status).toBe(200);
});

test('by default, CF-IPCountry ZZ (any case) → 403 geo_blocked; NL → 200', async () => {
  expect(expectProblem(await get('/protected', { ...asUser, 'cf-ipcountry': 'zz' }), 403).code).toBe(
    'geo_blocked',
  );
  expect((await get('/protected', { ...asUser, 'cf-ipcountry': 'NL' })).status).toBe(200);
});

test('by default, GET /archive is closed: 403 closed_route with or without credentials', async () => {
  expect(expectProblem(await get('/archive', asUser), 403).code).toBe('closed_route');
  expect((await get('/archive', {})).status).toBe(403);
});

test("the bundled profile's blocked clients and closed request are the ones the defaults block", async () => {
  const blocked = PROFILE.blocked;
  expect(blocked?.closed).toEqual({ path: '/archive', method: 'GET' });
  for (const client of blocked?.clients ?? []) {
    expect((await get('/protected', { ...asUser, ...client.headers })).status, client.label).toBe(403);
    expect((await get('/protected', { ...asUser, ...client.unblockedHeaders })).status, client.label).toBe(
      200,
    );
  }
  expect(blocked?.clients?.length).toBe(2);
});

test('a route closed for every method needs no resource in the data: the default policy works with any data file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatecheck-closed-'));
  try {
    const dataPath = join(dir, 'db.json');
    writeFileSync(dataPath, JSON.stringify({ users: [], protected: {}, admin: {} }));
    const other = await startMock({ port: 0, host: '127.0.0.1', dataPath });
    try {
      expect((await call(other.url, 'GET', '/archive', { headers: asUser })).status).toBe(403);
    } finally {
      await other.close();
    }
    // A route that is not closed still needs its resource.
    await expect(
      startMock({
        port: 0,
        dataPath,
        policy: { routes: [{ path: '/archive', methods: { GET: 'public' } }] },
      }),
    ).rejects.toThrow('the data has no resource "archive"');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
