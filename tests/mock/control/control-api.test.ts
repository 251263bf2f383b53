/**
 * The control API under /__gatecheck/ (its own bearer token; off by default on non-loopback hosts), the
 * journal it serves (why a request was refused, never the credential), the injectable clock, and reset.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { createApp } from '../../../mock/app.ts';
import { loadConfig } from '../../../mock/config.ts';
import { type RunningMock, startMock } from '../../../mock/server.ts';
import {
  ADMIN,
  type Answer,
  authorization,
  call,
  expectProblem,
  mint,
  USER,
  WRONG,
} from '../mock-support.ts';
import {
  advance,
  CAROL,
  CONTROL_TOKEN,
  control,
  controlJson,
  freezeAtWindowStart,
  mockPerTest,
  parseRateLimit,
} from './control-support.ts';

interface JournalEntry {
  time: string;
  method: string;
  path: string;
  status: number;
  identity?: string;
  client: string;
  outcome?: string;
  reason?: string;
}

const start = mockPerTest();

async function journal(mock: RunningMock, query = ''): Promise<JournalEntry[]> {
  return ((await controlJson(mock, 'GET', `/journal${query}`)) as { entries: JournalEntry[] }).entries;
}

test('without its token → 401 with a Bearer challenge of its own realm; a wrong token → 401 invalid_token; the API never reaches resources', async () => {
  const mock = await start();
  const none = await call(mock.url, 'GET', '/__gatecheck/journal');
  expectProblem(none, 401);
  expect(none.header('www-authenticate')).toBe('Bearer realm="gatecheck-control"');
  // Credentials of the interface are not the control token.
  const admin = await call(mock.url, 'POST', '/__gatecheck/reset', {
    headers: { authorization: authorization(ADMIN, 'bearer') },
  });
  expectProblem(admin, 401);
  expect(admin.header('www-authenticate')).toContain('error="invalid_token"');
  expect((await control(mock, 'GET', '/journal')).status).toBe(200);
  expect((await control(mock, 'GET', '/nothing-here')).status).toBe(404);
  expect((await control(mock, 'DELETE', '/reset')).header('allow')).toBe('POST');
  // The 401s were not journaled as interface requests.
  expect(await journal(mock)).toEqual([]);
});

test('a token is generated at start when none is configured, and is required', async () => {
  // Not startTestMock: that one configures the known test token.
  const mock = await startMock({ port: 0 });
  try {
    expect(mock.control?.token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(mock.control?.token).not.toBe(CONTROL_TOKEN);
    expect((await call(mock.url, 'GET', '/__gatecheck')).status).toBe(401);
    const ok = await call(mock.url, 'GET', '/__gatecheck', {
      headers: { authorization: `Bearer ${mock.control?.token}` },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json().endpoints).toContain('POST /__gatecheck/reset');
  } finally {
    await mock.close();
  }
});

/** The app built for a given listen address, served on loopback for the test (nothing binds elsewhere). */
async function serveAppBuiltFor(
  host: string,
  overrides: Parameters<typeof loadConfig>[1],
): Promise<{ url: string; server: Server }> {
  const app = await createApp(loadConfig(undefined, overrides), { host });
  const server = createServer(app.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

test('an app listening on a non-loopback address has no control API (404) and ignores X-Gatecheck-Fault, unless switched on', async () => {
  const closed = await serveAppBuiltFor('0.0.0.0', { control: { token: CONTROL_TOKEN } });
  const on = await serveAppBuiltFor('0.0.0.0', {
    control: { enabled: true, token: CONTROL_TOKEN },
    faults: { header: true },
  });
  try {
    const asked = { authorization: `Bearer ${CONTROL_TOKEN}` };
    const absent = await call(closed.url, 'GET', '/__gatecheck/journal', { headers: asked });
    expectProblem(absent, 404);
    const fault = { authorization: authorization(ADMIN, 'bearer'), 'x-gatecheck-fault': '500' };
    expect((await call(closed.url, 'GET', '/protected', { headers: fault })).status).toBe(200);

    expect((await call(on.url, 'GET', '/__gatecheck/journal', { headers: asked })).status).toBe(200);
    expect((await call(on.url, 'GET', '/protected', { headers: fault })).status).toBe(500);
  } finally {
    closed.server.close();
    on.server.close();
  }
});

test('the journal explains a 401 (expired token, wrong password) and a 403 (missing role), and never holds a credential', async () => {
  const mock = await start();
  const expired = await mint(USER.jwtClaims, { expiresIn: -3600 });
  const sent = [
    await call(mock.url, 'GET', '/protected', { headers: { authorization: `Bearer ${expired}` } }),
    await call(mock.url, 'GET', '/protected?token=secret-in-query', {
      headers: { authorization: WRONG.basic },
    }),
    await call(mock.url, 'GET', '/admin', { headers: { authorization: authorization(USER, 'bearer') } }),
    await call(mock.url, 'GET', '/protected', { headers: { authorization: authorization(ADMIN, 'apikey') } }),
    await call(mock.url, 'GET', '/users', { headers: { authorization: authorization(ADMIN, 'basic') } }),
  ];
  expect(sent.map((a) => a.status)).toEqual([401, 401, 403, 401, 200]);

  const entries = await journal(mock);
  expect(entries).toHaveLength(5);
  expect(entries[0]).toMatchObject({
    method: 'GET',
    path: '/protected',
    status: 401,
    outcome: 'jwt_expired',
    client: 'ip:127.0.0.1',
  });
  expect(entries[0]?.reason).toMatch(/expired/i);
  expect(entries[1]).toMatchObject({ path: '/protected', status: 401, outcome: 'basic_wrong_password' });
  expect(entries[2]).toMatchObject({
    path: '/admin',
    status: 403,
    identity: 'bob',
    client: 'id:bob',
    outcome: 'insufficient_role',
  });
  expect(entries[2]?.reason).toContain('admin');
  expect(entries[3]).toMatchObject({ status: 401, outcome: 'scheme_not_accepted' });
  expect(entries[4]).toMatchObject({ path: '/users', status: 200 });
  expect(entries[4]).not.toHaveProperty('outcome');
  expect(Date.parse(entries[0]?.time ?? '')).toBeGreaterThan(0);

  const text = JSON.stringify(entries);
  for (const secret of [
    expired,
    USER.bearer,
    ADMIN.apikey,
    ADMIN.basic.password,
    'not-the-password',
    'secret-in-query',
  ]) {
    expect(text).not.toContain(secret);
  }
  expect(text).not.toContain(WRONG.basic.slice(6));

  // Filters, and a bounded read.
  expect((await journal(mock, '?status=401')).map((e) => e.outcome)).toEqual([
    'jwt_expired',
    'basic_wrong_password',
    'scheme_not_accepted',
  ]);
  expect((await journal(mock, '?outcome=insufficient_role')).map((e) => e.path)).toEqual(['/admin']);
  expect((await journal(mock, '?limit=1'))[0]?.path).toBe('/users');
  expectProblem(await control(mock, 'GET', '/journal?limit=x'), 400);
});

test('the journal is a bounded ring: it keeps the newest journalSize requests', async () => {
  const mock = await start({ control: { journalSize: 3 } });
  for (let id = 1; id <= 5; id++) await call(mock.url, 'GET', `/users/${id}`);
  const body = (await controlJson(mock, 'GET', '/journal')) as {
    capacity: number;
    total: number;
    entries: JournalEntry[];
  };
  expect(body.capacity).toBe(3);
  expect(body.total).toBe(5);
  expect(body.entries.map((e) => e.path)).toEqual(['/users/3', '/users/4', '/users/5']);
});

test('the clock moves token expiry too: a token valid now → 401 jwt_expired after advancing the clock two hours; set, freeze and reset', async () => {
  const mock = await start();
  const token = `Bearer ${await mint(USER.jwtClaims, { expiresIn: 600 })}`;
  expect((await call(mock.url, 'GET', '/protected', { headers: { authorization: token } })).status).toBe(200);
  await advance(mock, 2 * 3600);
  const late = await call(mock.url, 'GET', '/protected', { headers: { authorization: token } });
  expect(expectProblem(late, 401).code).toBe('jwt_expired');

  const frozen = await controlJson(mock, 'POST', '/clock', { set: '2030-01-01T00:00:00Z', freeze: true });
  expect(frozen).toMatchObject({ iso: '2030-01-01T00:00:00.000Z', frozen: true });
  await new Promise((r) => setTimeout(r, 20));
  expect((await controlJson(mock, 'GET', '/clock')).now).toBe(Date.parse('2030-01-01T00:00:00Z'));
  expectProblem(await control(mock, 'POST', '/clock', { advanceSeconds: 'soon' }), 400);
  expectProblem(await control(mock, 'POST', '/clock', { set: 1, advanceMs: 1 }), 400);

  const reset = await controlJson(mock, 'DELETE', '/clock');
  expect(reset.frozen).toBe(false);
  expect(Math.abs((reset.offsetMs as number) ?? 1e9)).toBeLessThan(1000);
  expect((await call(mock.url, 'GET', '/protected', { headers: { authorization: token } })).status).toBe(200);
});

test('a configured clock offset (clockOffsetSeconds) shifts token checks from the start', async () => {
  const mock = await start({ clockOffsetSeconds: 3600 });
  const token = `Bearer ${await mint(USER.jwtClaims, { expiresIn: 600 })}`;
  expect(
    expectProblem(await call(mock.url, 'GET', '/protected', { headers: { authorization: token } }), 401).code,
  ).toBe('jwt_expired');
  expect((await controlJson(mock, 'GET', '/clock')).offsetMs).toBeGreaterThanOrEqual(3_599_000);
});

test('set and frozen in one call, the clock reads exactly the time set, however the base clock ticks; a move it refuses leaves it running', async () => {
  // A base clock that moves 1 ms on every reading: the instant between setting and freezing made the frozen
  // reading 1 ms late, and two instances frozen at one window's start disagreed (a ban's Retry-After 16 for 15).
  let base = 1_800_000_000_000;
  const mock = await start({ clock: () => base++ });
  const at = Date.parse('2030-01-01T00:00:00Z');
  expect(await controlJson(mock, 'POST', '/clock', { set: at, freeze: true })).toMatchObject({
    now: at,
    frozen: true,
  });
  expect((await controlJson(mock, 'GET', '/clock')).now).toBe(at);
  expect((await controlJson(mock, 'POST', '/clock', { advanceMs: 1500, freeze: true })).now).toBe(at + 1500);

  await controlJson(mock, 'POST', '/clock', { freeze: false });
  const bound = 101 * 365.25 * 86_400_000;
  expectProblem(await control(mock, 'POST', '/clock', { advanceMs: bound, freeze: true }), 400);
  expect((await controlJson(mock, 'GET', '/clock')).frozen).toBe(false);
});

test('reset restores a clean state in one call: data, limits, counters, bans, faults, journal, clock', async () => {
  const mock = await start({
    rateLimit: { groups: { default: { limit: 3, windowSeconds: 10, banAfter: 1, banSeconds: 60 } } },
  });
  await freezeAtWindowStart(mock);
  const writer = { authorization: authorization(ADMIN, 'basic'), 'content-type': 'application/json' };
  const created = await call(mock.url, 'POST', '/users', {
    headers: writer,
    body: JSON.stringify({ name: 'Temp' }),
  });
  expect(created.status).toBe(200);
  const id = created.json().id as string;
  expect((await call(mock.url, 'DELETE', '/users/1', { headers: writer })).status).toBe(200);
  // carol: limited, then banned.
  const carol = { authorization: authorization(CAROL, 'basic') };
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++)
    statuses.push((await call(mock.url, 'GET', '/protected', { headers: carol })).status);
  expect(statuses).toEqual([200, 200, 200, 429, 403]);
  await controlJson(mock, 'PUT', '/limits', { groups: { default: { limit: 1 } } });
  await controlJson(mock, 'PUT', '/faults', { rules: [{ kind: 'error', route: '/users' }] });
  expect((await call(mock.url, 'GET', '/users')).status).toBe(500);

  const done = await controlJson(mock, 'POST', '/reset');
  expect(done.reset).toEqual(['data', 'limits', 'counters', 'bans', 'faults', 'journal', 'clock']);

  expect(await journal(mock)).toEqual([]);
  const users = await call(mock.url, 'GET', '/users');
  expect(users.status).toBe(200);
  const ids = (JSON.parse(users.text) as Array<{ id: string }>).map((u) => u.id);
  expect(ids).toContain('1');
  expect(ids).not.toContain(id);
  const again = await call(mock.url, 'GET', '/protected', { headers: carol });
  expect(again.status).toBe(200);
  // The configured limit (3), not the one set at run time (1), and a fresh count.
  expect(parseRateLimit(again.header('ratelimit')).r).toBe(2);
  expect((await controlJson(mock, 'GET', '/clock')).frozen).toBe(false);
  expect((await controlJson(mock, 'GET', '/faults')).rules).toEqual([]);
});

test('control API errors are problem+json: a body that is not JSON, an unknown key, a bad fault rule → 400 naming it', async () => {
  const mock = await start();
  const notJson = await call(mock.url, 'PUT', '/__gatecheck/faults', {
    headers: { authorization: `Bearer ${CONTROL_TOKEN}`, 'content-type': 'application/json' },
    body: '{nope',
  });
  expectProblem(notJson, 400);
  const answers: Answer[] = [
    await control(mock, 'PUT', '/faults', { rules: [{ kind: 'explode' }] }),
    await control(mock, 'PUT', '/faults', { rules: [{ kind: 'error', route: '/nowhere' }] }),
    await control(mock, 'PUT', '/faults', { seed: 3 }),
    await control(mock, 'PUT', '/limits', { colour: 'red' }),
  ];
  const details = answers.map((a) => expectProblem(a, 400).detail);
  expect(details[0]).toContain('kind');
  expect(details[1]).toContain('/nowhere');
  expect(details[2]).toContain('rules');
  expect(details[3]).toContain('colour');
});
