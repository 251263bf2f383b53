/**
 * Address parsing and CIDR matching (ipaddr.js, strict forms), the proxy-chain walk and the two headers that
 * feed it (RFC 7239 Forwarded, X-Forwarded-For), and the clock — the small pieces under the HTTP behaviour,
 * checked directly on their edge cases.
 */

import type { IncomingMessage } from 'node:http';
import { expect, test } from '@playwright/test';
import { type Address, compileCidrList, formatAddress, parseAddress } from '../../../mock/access/cidr.ts';
import { createClientAddress } from '../../../mock/access/client-address.ts';
import { isLoopbackHost } from '../../../mock/access/exposure.ts';
import { forwardedHops, parseForwardedNode } from '../../../mock/access/forwarded.ts';
import { walkProxyChain } from '../../../mock/access/proxy-chain.ts';
import { createClock } from '../../../mock/clock.ts';

const v = (text: string): string | undefined => {
  const a = parseAddress(text);
  return a === undefined ? undefined : formatAddress(a);
};

const ip = (text: string): Address => parseAddress(text) as Address;
const texts = (hops: ReadonlyArray<Address | undefined>): Array<string | undefined> =>
  hops.map((hop) => (hop === undefined ? undefined : formatAddress(hop)));

/**
 * What createClientAddress reads of a request: the peer, and each header as Node keeps it — field lines apart
 * (headersDistinct) and joined with ", " (headers).
 */
const fakeRequest = (
  peer: string | undefined,
  lines: Record<string, string | string[]> = {},
): IncomingMessage => {
  const distinct = Object.fromEntries(
    Object.entries(lines).map(([name, value]) => [name, typeof value === 'string' ? [value] : value]),
  );
  const joined = Object.fromEntries(Object.entries(distinct).map(([name, list]) => [name, list.join(', ')]));
  return {
    socket: { remoteAddress: peer },
    headers: joined,
    headersDistinct: distinct,
  } as unknown as IncomingMessage;
};

test('addresses: dotted-quad IPv4 and any IPv6 form; IPv4-mapped IPv6 is IPv4; forms no proxy writes are refused', () => {
  expect(v('192.0.2.1')).toBe('192.0.2.1');
  expect(v('2001:DB8:0:0::1')).toBe('2001:db8::1');
  expect(v('::ffff:192.0.2.1')).toBe('192.0.2.1');
  expect(v('fe80::1%eth0')).toBe('fe80::1');
  for (const bad of ['0x7f.1', '127.1', '1.2.3.4.5', '1.2.3.4:80', '[::1]', 'localhost', '', ' 1.2.3.4']) {
    expect(parseAddress(bad), bad).toBeUndefined();
  }
});

test('CIDR lists: IPv4, IPv6, bare addresses, IPv4-mapped ranges; a bad entry names its index', () => {
  const list = compileCidrList(
    ['192.0.2.0/24', '2001:db8::/32', '198.51.100.7', '::ffff:203.0.113.0/120'],
    'x',
  );
  const has = (text: string): boolean =>
    list.has(parseAddress(text) as NonNullable<ReturnType<typeof parseAddress>>);
  expect(has('192.0.2.255')).toBe(true);
  expect(has('192.0.3.0')).toBe(false);
  expect(has('2001:db8:ffff::1')).toBe(true);
  expect(has('2001:db9::1')).toBe(false);
  expect(has('198.51.100.7')).toBe(true);
  expect(has('198.51.100.8')).toBe(false);
  expect(has('203.0.113.9')).toBe(true);
  expect(has('::ffff:192.0.2.1')).toBe(true);
  for (const [entry, index] of [
    ['10.0.0.0/33', 1],
    ['2001:db8::/129', 1],
    ['::ffff:10.0.0.0/95', 1],
    ['10.0.0.0/8x', 1],
  ] as const) {
    expect(() => compileCidrList(['10.0.0.1', entry], 'access.blockedIps')).toThrow(
      `access.blockedIps[${index}]`,
    );
  }
});

test('X-Forwarded-For: read from the right while hops are trusted; a garbage hop stops the walk at the last trusted one', () => {
  const trusted = compileCidrList(['127.0.0.1', '10.0.0.0/8'], 't');
  const address = createClientAddress(trusted, 'x-forwarded-for');
  const req = (peer: string, xff?: string | string[]): IncomingMessage =>
    fakeRequest(peer, xff === undefined ? {} : { 'x-forwarded-for': xff });
  expect(address(req('127.0.0.1', '198.51.100.1, 10.0.0.2, 10.0.0.3'))).toBe('198.51.100.1');
  expect(address(req('127.0.0.1', '203.0.113.1, 198.51.100.1'))).toBe('198.51.100.1');
  expect(address(req('127.0.0.1', '10.0.0.9'))).toBe('10.0.0.9');
  expect(address(req('127.0.0.1', 'garbage, 10.0.0.2'))).toBe('10.0.0.2');
  expect(address(req('127.0.0.1', '[2001:db8::1]:443, 198.51.100.2:8080'))).toBe('198.51.100.2');
  expect(address(req('::ffff:127.0.0.1', '198.51.100.3'))).toBe('198.51.100.3');
  // Several field lines are one list, in order.
  expect(address(req('127.0.0.1', ['198.51.100.5', '10.0.0.2']))).toBe('198.51.100.5');
  expect(address(req('127.0.0.1', ['10.0.0.2', '198.51.100.5']))).toBe('198.51.100.5');
  // The peer is not a trusted proxy: its header is the client's own claim.
  expect(address(req('198.51.100.4', '10.0.0.1'))).toBe('198.51.100.4');
  expect(createClientAddress(undefined, 'x-forwarded-for')(req('::ffff:192.0.2.8', '10.0.0.1'))).toBe(
    '192.0.2.8',
  );
  expect(createClientAddress(undefined, 'x-forwarded-for')(fakeRequest(undefined))).toBe('unknown');
});

test('the proxy-chain walk: from the right while hops are trusted proxies; a hop without an address stops it at the last trusted one', () => {
  const trusted = compileCidrList(['127.0.0.1', '10.0.0.0/8'], 't');
  const walk = (...hops: Array<string | undefined>): string =>
    formatAddress(
      walkProxyChain(
        ip('127.0.0.1'),
        hops.map((hop) => (hop === undefined ? undefined : ip(hop))),
        trusted,
      ),
    );
  expect(walk()).toBe('127.0.0.1');
  expect(walk('198.51.100.1', '10.0.0.2', '10.0.0.3')).toBe('198.51.100.1');
  expect(walk('203.0.113.1', '198.51.100.1', '10.0.0.3')).toBe('198.51.100.1');
  expect(walk('10.0.0.1', '10.0.0.2')).toBe('10.0.0.1');
  expect(walk('198.51.100.1', undefined)).toBe('127.0.0.1');
  expect(walk('198.51.100.1', undefined, '10.0.0.2')).toBe('10.0.0.2');
  expect(walk(undefined, '2001:db8::1')).toBe('2001:db8::1');
});

test('Forwarded for= node (RFC 7239 §6): IPv4 with or without port, IPv6 only in brackets; unknown and _obfuscated carry no address; anything else is not a node', () => {
  const node = (value: string): string | undefined => {
    const n = parseForwardedNode(value);
    return n === undefined || n === 'hidden' ? n : formatAddress(n);
  };
  expect(node('192.0.2.43')).toBe('192.0.2.43');
  expect(node('192.0.2.43:4711')).toBe('192.0.2.43');
  expect(node('192.0.2.43:_port-1')).toBe('192.0.2.43');
  expect(node('[2001:DB8:cafe::17]')).toBe('2001:db8:cafe::17');
  expect(node('[2001:db8:cafe::17]:4711')).toBe('2001:db8:cafe::17');
  expect(node('[::ffff:192.0.2.9]:80')).toBe('192.0.2.9');
  for (const hidden of [
    'unknown',
    'UNKNOWN',
    'unknown:4711',
    '_hidden',
    '_SEVKISEK',
    '_a.b-c_d',
    '_hidden:_p',
  ]) {
    expect(node(hidden), hidden).toBe('hidden');
  }
  for (const bad of [
    '',
    '2001:db8::1',
    '::1',
    '[2001:db8::1',
    '[2001:db8::1]x',
    '[2001:db8::1]:',
    '[2001:db8::1]:123456',
    '[fe80::1%eth0]',
    '[192.0.2.1]',
    '192.0.2.1:',
    '192.0.2.1:http',
    '192.0.2.1:80:80',
    '0x7f.1',
    'example.com',
    '_',
    '_a b',
    'unknown_',
  ]) {
    expect(parseForwardedNode(bad), bad).toBeUndefined();
  }
});

test('Forwarded hops (RFC 7239 §4, §7.1): one per element over every field line; names in any case; quoted-strings unescaped; a line that does not parse is one hop without an address', () => {
  const hops = (...lines: string[]): Array<string | undefined> => texts(forwardedHops(lines));
  expect(hops('for=192.0.2.60;proto=http;by=203.0.113.43')).toEqual(['192.0.2.60']);
  expect(hops('For="[2001:db8:cafe::17]:4711"')).toEqual(['2001:db8:cafe::17']);
  expect(hops('for=192.0.2.43, for=198.51.100.17')).toEqual(['192.0.2.43', '198.51.100.17']);
  expect(hops('for=192.0.2.43', 'FOR=198.51.100.17;By=10.0.0.1')).toEqual(['192.0.2.43', '198.51.100.17']);
  expect(hops('for="192.0.2.\\4\\3"')).toEqual(['192.0.2.43']);
  // No address to check: unknown (§6.2), obfuscated (§6.3), an element without for=.
  expect(hops('for=unknown, for=_hidden, proto=https;by=10.0.0.1')).toEqual([
    undefined,
    undefined,
    undefined,
  ]);
  for (const bad of [
    'garbage',
    'for=',
    'for=192.0.2.1:80',
    'for=[2001:db8::1]',
    'for="192.0.2.1',
    'for="2001:db8::1"',
    'for=192.0.2.1 proto=http',
    '=192.0.2.1',
    '"',
    ';',
  ]) {
    expect(hops(bad), bad).toEqual([undefined]);
  }
  // A broken prefix does not swallow the element a proxy appended after it on the same line…
  expect(hops('for="203.0.113.1, for=198.51.100.2')).toEqual([undefined, '198.51.100.2']);
  expect(hops('for=a:b, for=203.0.113.1, for="[2001:db8::9]"')).toEqual([
    undefined,
    '203.0.113.1',
    '2001:db8::9',
  ]);
  // …nor another line; and only the last 16 commas of a broken line are tried.
  expect(hops('for="x', 'for=198.51.100.3')).toEqual([undefined, '198.51.100.3']);
  expect(hops(`for="x${', for=10.0.0.1'.repeat(40)}`)).toHaveLength(17);
});

test('proxyHeader forwarded: Forwarded from a trusted proxy is the chain and X-Forwarded-For is ignored, even alone; from anyone else, or malformed, the peer is the client', () => {
  const trusted = compileCidrList(['127.0.0.1', '10.0.0.0/8', '::1'], 't');
  const address = createClientAddress(trusted, 'forwarded');
  const req = fakeRequest;
  expect(address(req('127.0.0.1', { forwarded: 'for=198.51.100.1, for=10.0.0.2' }))).toBe('198.51.100.1');
  expect(address(req('127.0.0.1', { forwarded: 'for=203.0.113.1, for=198.51.100.1' }))).toBe('198.51.100.1');
  expect(address(req('::1', { forwarded: 'for="[2001:db8::7]:4711"' }))).toBe('2001:db8::7');
  expect(address(req('127.0.0.1', { forwarded: ['for=198.51.100.8', 'for=10.0.0.2'] }))).toBe('198.51.100.8');
  // Both headers: Forwarded is read, X-Forwarded-For is not — even when Forwarded names no address.
  const xff = { 'x-forwarded-for': '203.0.113.9' };
  expect(address(req('127.0.0.1', { forwarded: 'for=198.51.100.1', ...xff }))).toBe('198.51.100.1');
  expect(address(req('127.0.0.1', { forwarded: 'for=_hidden', ...xff }))).toBe('127.0.0.1');
  expect(address(req('127.0.0.1', { forwarded: 'for=unknown', ...xff }))).toBe('127.0.0.1');
  expect(address(req('127.0.0.1', { forwarded: 'for=nonsense', ...xff }))).toBe('127.0.0.1');
  // Not a fallback (RFC 7239 §8.1): no Forwarded, or an empty one, leaves the peer whatever X-Forwarded-For says.
  expect(address(req('127.0.0.1', xff))).toBe('127.0.0.1');
  expect(address(req('127.0.0.1', { forwarded: '', ...xff }))).toBe('127.0.0.1');
  // Malformed → the peer, never a throw.
  for (const bad of [
    'for=',
    'for="[2001:db8::1"',
    'for="2001:db8::1"',
    'for=192.0.2.1:80',
    '"',
    'x'.repeat(8000),
  ]) {
    expect(address(req('127.0.0.1', { forwarded: bad })), bad).toBe('127.0.0.1');
  }
  // The peer is not a trusted proxy: its Forwarded is the client's own claim.
  expect(address(req('198.51.100.4', { forwarded: 'for=10.0.0.1' }))).toBe('198.51.100.4');
  expect(createClientAddress(undefined, 'forwarded')(req('127.0.0.1', { forwarded: 'for=10.0.0.1' }))).toBe(
    '127.0.0.1',
  );
});

test('proxyHeader x-forwarded-for (the default): a Forwarded the trusted proxy passed through is ignored, alone or beside X-Forwarded-For', () => {
  const trusted = compileCidrList(['127.0.0.1', '10.0.0.0/8'], 't');
  const address = createClientAddress(trusted, 'x-forwarded-for');
  const req = fakeRequest;
  // The proxy appended the client it saw (203.0.113.9) to X-Forwarded-For; the client's own Forwarded is noise.
  const spoof = { forwarded: 'for=198.51.100.1' };
  expect(address(req('127.0.0.1', { ...spoof, 'x-forwarded-for': '203.0.113.9' }))).toBe('203.0.113.9');
  expect(address(req('127.0.0.1', { ...spoof, 'x-forwarded-for': '203.0.113.9, 10.0.0.2' }))).toBe(
    '203.0.113.9',
  );
  expect(
    address(
      req('127.0.0.1', { forwarded: ['for=198.51.100.1', 'for=10.0.0.2'], 'x-forwarded-for': '203.0.113.9' }),
    ),
  ).toBe('203.0.113.9');
  // Without X-Forwarded-For the peer is the client, not the Forwarded claim.
  expect(address(req('127.0.0.1', spoof))).toBe('127.0.0.1');
  expect(address(req('127.0.0.1', { forwarded: 'for=10.0.0.7', 'x-forwarded-for': '' }))).toBe('127.0.0.1');
});

test('createClientAddress with a proxyHeader that is neither → TypeError naming it (the config schema refuses it first)', () => {
  const trusted = compileCidrList(['127.0.0.1'], 't');
  expect(() => createClientAddress(trusted, 'X-Real-IP' as unknown as 'forwarded')).toThrow(TypeError);
  expect(() => createClientAddress(undefined, 'Forwarded' as unknown as 'forwarded')).toThrow(
    /^proxyHeader: must be one of x-forwarded-for, forwarded, got "Forwarded"$/,
  );
});

test('the clock: offset, advance, set, freeze, reset; absurd offsets refused', () => {
  let base = 1_000_000;
  const clock = createClock(() => base, 5000);
  expect(clock.now()).toBe(1_005_000);
  clock.advance(1000);
  base += 10;
  expect(clock.now()).toBe(1_006_010);
  clock.set(2_000_000);
  expect(clock.freeze(true)).toBe(2_000_000);
  base += 500;
  expect(clock.now()).toBe(2_000_000);
  clock.advance(250);
  expect(clock.now()).toBe(2_000_250);
  clock.freeze(false);
  base += 100;
  expect(clock.now()).toBe(2_000_350);
  clock.reset();
  expect(clock.now()).toBe(base + 5000);
  expect(clock.state().frozen).toBe(false);
  expect(() => clock.advance(Number.NaN)).toThrow(TypeError);
  expect(() => clock.set(8.64e15 * 2)).toThrow(RangeError);
});

test('loopback hosts: 127.0.0.0/8, ::1 (bracketed too), localhost; not 0.0.0.0, ::, or a name', () => {
  for (const host of [
    '127.0.0.1',
    '127.8.9.10',
    '::1',
    '[::1]',
    'localhost',
    'LOCALHOST',
    '::ffff:127.0.0.1',
  ]) {
    expect(isLoopbackHost(host), host).toBe(true);
  }
  for (const host of ['0.0.0.0', '::', '192.0.2.1', 'example.test', '', undefined]) {
    expect(isLoopbackHost(host), String(host)).toBe(false);
  }
});
