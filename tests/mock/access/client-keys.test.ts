/**
 * The limiter's keys (mock/access/client-keys.ts) are made once per client and reused; what a caller sees must
 * be exactly the key it would have built, whichever table it came from and after a table was emptied.
 */
import { expect, test } from '@playwright/test';
import { addressKey, identityKey, stateKeys } from '../../../mock/access/client-keys.ts';

test('keys read ip:<address>, id:<identity>, <group> <client>, the same on every call', () => {
  expect([addressKey('127.0.0.1'), addressKey('::1'), identityKey('bob')]).toEqual([
    'ip:127.0.0.1',
    'ip:::1',
    'id:bob',
  ]);
  expect(addressKey('127.0.0.1')).toBe('ip:127.0.0.1');
  // An address and an identity spelled alike are different clients.
  expect(addressKey('bob')).not.toBe(identityKey('bob'));
  const stateKey = stateKeys();
  expect(stateKey('default', 'ip:127.0.0.1')).toBe('default ip:127.0.0.1');
  expect(stateKey('default:failed', 'ip:127.0.0.1')).toBe('default:failed ip:127.0.0.1');
  expect(stateKey('strict', 'id:bob')).not.toBe(stateKey('default', 'id:bob'));
});

test("past the bound (a table is emptied and refilled), every key is still its client's", () => {
  const stateKey = stateKeys();
  for (let i = 0; i < 25_000; i++) {
    const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const key = addressKey(address);
    if (key !== `ip:${address}`) throw new Error(`address ${address} → ${key}`);
    const state = stateKey('default', key);
    if (state !== `default ip:${address}`) throw new Error(`${key} → ${state}`);
    if (identityKey(`user-${i}`) !== `id:user-${i}`) throw new Error(`identity user-${i}`);
  }
  expect(addressKey('10.0.0.1')).toBe('ip:10.0.0.1');
});
