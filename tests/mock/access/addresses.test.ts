/**
 * Address parsing and CIDR matching (ipaddr.js, strict forms), the X-Forwarded-For walk, and the clock —
 * the small pieces under the HTTP behaviour, checked directly on their edge cases.
 */

import type { IncomingMessage } from 'node:http';
import { expect, test } from '@playwright/test';
import { compileCidrList, formatAddress, parseAddress } from '../../../mock/access/cidr.ts';
import { createClientAddress } from '../../../mock/access/client-address.ts';
import { createClock } from '../../../mock/clock.ts';
import { isLoopbackHost } from '../../../mock/control/exposure.ts';

const v = (text: string): string | undefined => {
  const a = parseAddress(text);
  return a === undefined ? undefined : formatAddress(a);
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
  const address = createClientAddress(trusted);
  const req = (peer: string, xff?: string | string[]): IncomingMessage =>
    ({
      socket: { remoteAddress: peer },
      headers: xff === undefined ? {} : { 'x-forwarded-for': xff },
    }) as unknown as IncomingMessage;
  expect(address(req('127.0.0.1', '198.51.100.1, 10.0.0.2, 10.0.0.3'))).toBe('198.51.100.1');
  expect(address(req('127.0.0.1', '203.0.113.1, 198.51.100.1'))).toBe('198.51.100.1');
  expect(address(req('127.0.0.1', '10.0.0.9'))).toBe('10.0.0.9');
  expect(address(req('127.0.0.1', 'garbage, 10.0.0.2'))).toBe('10.0.0.2');
  expect(address(req('127.0.0.1', '[2001:db8::1]:443, 198.51.100.2:8080'))).toBe('198.51.100.2');
  expect(address(req('::ffff:127.0.0.1', '198.51.100.3'))).toBe('198.51.100.3');
  // The peer is not a trusted proxy: its header is the client's own claim.
  expect(address(req('198.51.100.4', '10.0.0.1'))).toBe('198.51.100.4');
  expect(createClientAddress(undefined)(req('::ffff:192.0.2.8', '10.0.0.1'))).toBe('192.0.2.8');
  expect(createClientAddress(undefined)(req(undefined as unknown as string))).toBe('unknown');
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
