/**
 * Block lists and access rules (403; seed §7, causes 2, 3 and 5): blocked CIDR ranges (IPv4, IPv6,
 * IPv4-mapped), blocked countries from the edge proxy's header, and a policy route closed to everyone — while
 * the same credentials from elsewhere get 200. Loopback only: other client addresses are presented through
 * X-Forwarded-For with 127.0.0.1 configured as a trusted proxy.
 */

import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { Policy } from '../../../mock/routing/policy.ts';
import type { RunningMock } from '../../../mock/server.ts';
import { controlJson, mockPerTest, startTestMock } from '../control/control-support.ts';
import { ADMIN, type Answer, authorization, call, expectProblem, fixture, USER } from '../mock-support.ts';

const admin = { authorization: authorization(ADMIN, 'bearer') };
const start = mockPerTest();

const from = (
  mock: RunningMock,
  xff: string | undefined,
  extra: Record<string, string> = {},
): Promise<Answer> =>
  call(mock.url, 'GET', '/protected', {
    headers: { ...admin, ...extra, ...(xff ? { 'x-forwarded-for': xff } : {}) },
  });

test('a client address in a blocked CIDR range → 403 problem+json; the same admin credentials from another address → 200', async () => {
  const mock = await start({
    access: { trustedProxies: ['127.0.0.1/32'], blockedIps: ['203.0.113.0/24', '2001:db8:bad::/48'] },
  });
  const blocked = await from(mock, '203.0.113.77');
  const body = expectProblem(blocked, 403);
  expect(body.code).toBe('ip_blocked');
  expect(body.detail).toContain('203.0.113.77');
  // Before credentials: a missing Authorization from a blocked address is still 403, not 401.
  expect(
    (await call(mock.url, 'GET', '/protected', { headers: { 'x-forwarded-for': '203.0.113.9' } })).status,
  ).toBe(403);
  expect((await from(mock, '2001:db8:bad:1::5')).status).toBe(403);
  // An IPv4-mapped IPv6 address is the IPv4 address it carries.
  expect((await from(mock, '::ffff:203.0.113.5')).status).toBe(403);

  expect((await from(mock, '198.51.100.7')).status).toBe(200);
  expect((await from(mock, '2001:db8:600d::1')).status).toBe(200);
  expect((await from(mock, undefined)).status).toBe(200);
});

test('X-Forwarded-For: only trusted proxies are believed; the client is the first untrusted hop from the right', async () => {
  const untrusting = await start({ access: { blockedIps: ['203.0.113.0/24'] } });
  // No trusted proxy: the header is the client's own claim and is ignored.
  expect((await from(untrusting, '203.0.113.1')).status).toBe(200);

  const mock = await start({
    access: { trustedProxies: ['127.0.0.1', '10.0.0.0/8'], blockedIps: ['203.0.113.0/24'] },
  });
  // 10.1.1.1 is a trusted proxy that saw 203.0.113.1: blocked.
  expect((await from(mock, '203.0.113.1, 10.1.1.1')).status).toBe(403);
  // A forged left-most entry does not help a client seen as 198.51.100.1.
  expect((await from(mock, '203.0.113.1, 198.51.100.1')).status).toBe(200);
  // And a blocked client cannot hide behind a forged entry left of itself.
  expect((await from(mock, '198.51.100.1, 203.0.113.1')).status).toBe(403);
  const journal = (await controlJson(mock, 'GET', '/journal')) as { entries: Array<Record<string, unknown>> };
  expect(journal.entries.map((e) => e.outcome)).toEqual(['ip_blocked', undefined, 'ip_blocked']);
});

test('a blocked country in the edge proxy header (CF-IPCountry by default) → 403; another country, or none → 200', async () => {
  const mock = await start({ access: { blockedCountries: ['KP', 'xx'] } });
  const blocked = await from(mock, undefined, { 'cf-ipcountry': 'KP' });
  const body = expectProblem(blocked, 403);
  expect(body.code).toBe('geo_blocked');
  expect(body.detail).toContain('KP');
  expect((await from(mock, undefined, { 'cf-ipcountry': 'xx' })).status).toBe(403);
  expect((await from(mock, undefined, { 'cf-ipcountry': 'FR' })).status).toBe(200);
  expect((await from(mock, undefined)).status).toBe(200);

  const renamed = await start({ access: { blockedCountries: ['KP'], countryHeader: 'X-Country' } });
  expect((await from(renamed, undefined, { 'x-country': 'kp' })).status).toBe(403);
  expect((await from(renamed, undefined, { 'cf-ipcountry': 'KP' })).status).toBe(200);
});

test('a policy route closed to everyone → 403 for every client and credential (and without one); a scope-only route → 403 without the scope', async () => {
  const base = JSON.parse(readFileSync(fixture('policy.json'), 'utf8')) as {
    routes: Array<{ path: string; methods: Record<string, unknown> }>;
  };
  const policy = {
    routes: [
      ...base.routes.filter((r) => r.path !== '/admin' && r.path !== '/protected'),
      { path: '/admin', methods: { GET: 'closed' } },
      { path: '/protected', methods: { GET: { schemes: ['bearer', 'basic'], scopes: ['users:write'] } } },
    ],
  } as unknown as Policy;
  const mock = await start({ policy });
  const closed = await call(mock.url, 'GET', '/admin', { headers: admin });
  expect(expectProblem(closed, 403).code).toBe('closed_route');
  expect((await call(mock.url, 'GET', '/admin')).status).toBe(403);
  expect((await call(mock.url, 'HEAD', '/admin')).status).toBe(403);
  // The method list is unchanged: 405 still names GET.
  expect((await call(mock.url, 'DELETE', '/admin')).header('allow')).toBe('GET, HEAD, OPTIONS');

  // alice has users:write, bob does not.
  expect((await from(mock, undefined)).status).toBe(200);
  const bob = await call(mock.url, 'GET', '/protected', {
    headers: { authorization: authorization(USER, 'bearer') },
  });
  expect(expectProblem(bob, 403).requiredScopes).toEqual(['users:write']);
});

test('a bad CIDR entry or country code is refused at start-up with one line naming it', async () => {
  await expect(startTestMock({ access: { blockedIps: ['203.0.113.0/33'] } })).rejects.toThrow(
    /^config\.access\.blockedIps\[0\]: "203\.0\.113\.0\/33" is not an IPv4 or IPv6 address or CIDR range/,
  );
  await expect(startTestMock({ access: { trustedProxies: ['10.0.0.0/8', 'proxy.local'] } })).rejects.toThrow(
    /^config\.access\.trustedProxies\[1\]/,
  );
  await expect(startTestMock({ access: { blockedCountries: ['KPR'] } })).rejects.toThrow(
    /access\.blockedCountries\[0\]: must be a two-letter country code/,
  );
});
