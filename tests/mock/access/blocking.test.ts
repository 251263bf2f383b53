/**
 * Block lists and access rules (403; seed §7, causes 2, 3 and 5): blocked CIDR ranges (IPv4, IPv6,
 * IPv4-mapped), blocked countries from the edge proxy's header, and a policy route closed to everyone — while
 * the same credentials from elsewhere get 200. Loopback only: other client addresses are presented through
 * X-Forwarded-For (the default `access.proxyHeader`) or Forwarded (RFC 7239, `proxyHeader: 'forwarded'`) with
 * 127.0.0.1 configured as a trusted proxy.
 */

import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { Policy } from '../../../mock/routing/policy.ts';
import type { RunningMock } from '../../../mock/server.ts';
import { control, controlJson, mockPerTest, startTestMock } from '../control/control-support.ts';
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
  const untrusting = await start({ access: { trustedProxies: [], blockedIps: ['203.0.113.0/24'] } });
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

/** GET /protected as the admin, with these proxy headers (an array value is sent as several field lines). */
const via = (mock: RunningMock, headers: Record<string, string | string[]>): Promise<Answer> =>
  call(mock.url, 'GET', '/protected', { headers: { ...admin, ...headers } });

/**
 * The client the mock settled on for one request without credentials (401, counted under `ip:<address>`), read
 * from the journal; the answer is never a 5xx.
 */
async function seenAs(mock: RunningMock, headers: Record<string, string | string[]>): Promise<string> {
  const answer = await call(mock.url, 'GET', '/protected', { headers });
  expect(answer.status, JSON.stringify(headers)).toBe(401);
  const journal = (await controlJson(mock, 'GET', '/journal?limit=1')) as {
    entries: Array<{ client: string }>;
  };
  return (journal.entries[0] as { client: string }).client;
}

test('proxyHeader forwarded, Forwarded from a trusted proxy: a blocked for= address → 403 before credentials, in every RFC 7239 form; an allowed one → 200', async () => {
  const mock = await start({
    access: {
      trustedProxies: ['127.0.0.1', '10.0.0.0/8'],
      proxyHeader: 'forwarded',
      blockedIps: ['203.0.113.0/24', '2001:db8:bad::/48'],
    },
  });
  const blocked = await via(mock, { forwarded: 'for=203.0.113.77' });
  const body = expectProblem(blocked, 403);
  expect(body.code).toBe('ip_blocked');
  expect(body.detail).toContain('203.0.113.77');
  expect(
    (await call(mock.url, 'GET', '/protected', { headers: { forwarded: 'for=203.0.113.9' } })).status,
  ).toBe(403);
  for (const value of [
    'For="203.0.113.77:4711"',
    'for="[2001:db8:bad::5]:4711"',
    'FOR="[2001:db8:bad::5]";proto=https;by=10.0.0.1',
    'for="[::ffff:203.0.113.5]"',
    // 10.1.1.1 is a trusted proxy that saw 203.0.113.1.
    'for=203.0.113.1;proto=https, for=10.1.1.1',
    // A forged entry left of the blocked client does not hide it.
    'for=198.51.100.1, for=203.0.113.1',
    // The proxy's element appended after a client's broken prefix still counts.
    'for="198.51.100.1, for=203.0.113.1',
  ]) {
    expect((await via(mock, { forwarded: value })).status, value).toBe(403);
  }
  // Several field lines are one list (RFC 7239 §7.1).
  expect((await via(mock, { forwarded: ['for=203.0.113.1', 'for=10.1.1.1'] })).status).toBe(403);
  expect((await via(mock, { forwarded: ['for=198.51.100.1', 'for=10.1.1.1'] })).status).toBe(200);

  expect((await via(mock, { forwarded: 'for=198.51.100.7' })).status).toBe(200);
  expect((await via(mock, { forwarded: 'for="[2001:db8:600d::1]:4711"' })).status).toBe(200);
  // A forged left-most entry does not help a client seen as 198.51.100.1 either.
  expect((await via(mock, { forwarded: 'for=203.0.113.1, for=198.51.100.1' })).status).toBe(200);
  expect(await seenAs(mock, { forwarded: 'for="[2001:DB8:600D:0::1]:4711"' })).toBe('ip:2001:db8:600d::1');
  expect(await seenAs(mock, { forwarded: 'for="198.51.100.9:_port"' })).toBe('ip:198.51.100.9');
});

test('proxyHeader forwarded, Forwarded from a peer that is not a trusted proxy is ignored, both ways: it neither blocks nor unblocks', async () => {
  const untrusting = await start({
    access: { trustedProxies: [], proxyHeader: 'forwarded', blockedIps: ['203.0.113.0/24'] },
  });
  expect((await via(untrusting, { forwarded: 'for=203.0.113.1' })).status).toBe(200);
  expect(await seenAs(untrusting, { forwarded: 'for=198.51.100.1' })).toBe('ip:127.0.0.1');

  const elsewhere = await start({
    access: { trustedProxies: ['10.0.0.0/8'], proxyHeader: 'forwarded', blockedIps: ['127.0.0.1'] },
  });
  expect((await via(elsewhere, { forwarded: 'for=198.51.100.1' })).status).toBe(403);
  expect((await via(elsewhere, { forwarded: 'for=10.0.0.1' })).status).toBe(403);
});

test('proxyHeader forwarded: Forwarded is read and X-Forwarded-For ignored, beside it or alone (not a fallback)', async () => {
  const mock = await start({
    access: { trustedProxies: ['127.0.0.1'], proxyHeader: 'forwarded', blockedIps: ['203.0.113.0/24'] },
  });
  expect((await via(mock, { forwarded: 'for=203.0.113.5', 'x-forwarded-for': '198.51.100.5' })).status).toBe(
    403,
  );
  expect((await via(mock, { forwarded: 'for=198.51.100.5', 'x-forwarded-for': '203.0.113.5' })).status).toBe(
    200,
  );
  expect(await seenAs(mock, { forwarded: 'for=198.51.100.5', 'x-forwarded-for': '192.0.2.5' })).toBe(
    'ip:198.51.100.5',
  );
  // A Forwarded that names no address leaves the peer, whatever X-Forwarded-For says; so does none at all.
  expect((await via(mock, { forwarded: 'for=unknown', 'x-forwarded-for': '203.0.113.5' })).status).toBe(200);
  expect((await via(mock, { 'x-forwarded-for': '203.0.113.5' })).status).toBe(200);
  expect(await seenAs(mock, { 'x-forwarded-for': '192.0.2.5' })).toBe('ip:127.0.0.1');
});

test('proxyHeader x-forwarded-for (the default): a blocked client behind a trusted proxy that sends Forwarded: for=<an allowed address> → still 403; Forwarded alone is ignored both ways', async () => {
  const mock = await start({ access: { trustedProxies: ['127.0.0.1'], blockedIps: ['203.0.113.0/24'] } });
  expect(mock.config.access.proxyHeader).toBe('x-forwarded-for');
  // The proxy (nginx, ALB, Cloudflare) appended the address it saw to X-Forwarded-For and passed the client's
  // own Forwarded through untouched (RFC 7239 §8.1: any node may write it, the client included).
  const spoofed = await via(mock, { forwarded: 'for=198.51.100.5', 'x-forwarded-for': '203.0.113.5' });
  expect(expectProblem(spoofed, 403).code).toBe('ip_blocked');
  expect(
    (await via(mock, { forwarded: ['for=198.51.100.5', 'for=127.0.0.1'], 'x-forwarded-for': '203.0.113.5' }))
      .status,
  ).toBe(403);
  expect(await seenAs(mock, { forwarded: 'for=198.51.100.5', 'x-forwarded-for': '192.0.2.5' })).toBe(
    'ip:192.0.2.5',
  );
  // Without X-Forwarded-For, a Forwarded neither blocks nor picks an address: the peer is the client.
  expect((await via(mock, { forwarded: 'for=203.0.113.5' })).status).toBe(200);
  expect(await seenAs(mock, { forwarded: 'for=198.51.100.5' })).toBe('ip:127.0.0.1');
});

test('Forwarded for=unknown or an obfuscated _identifier carries no address → the last trusted hop is the client, nothing left of it is believed', async () => {
  const mock = await start({
    access: {
      trustedProxies: ['127.0.0.1', '10.0.0.0/8'],
      proxyHeader: 'forwarded',
      blockedIps: ['203.0.113.0/24'],
    },
  });
  for (const value of ['for=unknown', 'for=_hidden', 'for="_SEVKISEK:_4711"', 'for=UNKNOWN;proto=https']) {
    expect(await seenAs(mock, { forwarded: value }), value).toBe('ip:127.0.0.1');
  }
  expect(await seenAs(mock, { forwarded: 'for=203.0.113.1, for=_hidden, for=10.0.0.3' })).toBe('ip:10.0.0.3');
  expect((await via(mock, { forwarded: 'for=203.0.113.1, for=_hidden' })).status).toBe(200);
  expect((await via(mock, { forwarded: 'for=203.0.113.1, for=unknown' })).status).toBe(200);
});

test('a malformed Forwarded from a trusted proxy → the peer address, never a 5xx, and its value is recorded nowhere', async () => {
  const mock = await start({
    access: { trustedProxies: ['127.0.0.1'], proxyHeader: 'forwarded', blockedIps: ['203.0.113.0/24'] },
  });
  const marker = 's3cr3t-in-forwarded';
  for (const value of [
    `for="203.0.113.1;${marker}`,
    `for=203.0.113.1:80;x=${marker}`,
    'for="2001:db8:bad::1"',
    'for=[2001:db8::1]',
    'for="[2001:db8::1"',
    `for=${marker}`,
    'for=',
    'for=203.0.113.1 by=x',
    '=;,"',
    `${','.repeat(4000)}for="`,
    'for="\\"',
  ]) {
    expect(await seenAs(mock, { forwarded: value }), value).toBe('ip:127.0.0.1');
    const answer = await via(mock, { forwarded: value });
    expect(answer.status, value).toBe(200);
    expect(answer.text).not.toContain(marker);
  }
  const journal = await control(mock, 'GET', '/journal');
  expect(journal.status).toBe(200);
  expect(journal.text).not.toContain(marker);
  expect(journal.text).not.toContain('forwarded');
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

test('a bad CIDR entry, proxyHeader or country code is refused at start-up with one line naming it', async () => {
  await expect(startTestMock({ access: { blockedIps: ['203.0.113.0/33'] } })).rejects.toThrow(
    /^config\.access\.blockedIps\[0\]: "203\.0\.113\.0\/33" is not an IPv4 or IPv6 address or CIDR range/,
  );
  await expect(startTestMock({ access: { trustedProxies: ['10.0.0.0/8', 'proxy.local'] } })).rejects.toThrow(
    /^config\.access\.trustedProxies\[1\]/,
  );
  await expect(startTestMock({ access: { proxyHeader: 'x-real-ip' as 'forwarded' } })).rejects.toThrow(
    /^options\.access\.proxyHeader: must be one of x-forwarded-for, forwarded$/,
  );
  await expect(startTestMock({ access: { blockedCountries: ['KPR'] } })).rejects.toThrow(
    /access\.blockedCountries\[0\]: must be a two-letter country code/,
  );
});
