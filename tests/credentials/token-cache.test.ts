/**
 * The broker's cache (specs/credentials/token-cache.ts): one token request per identity however many ask at
 * once (single flight), none while the token is fresh, a new one a quarter of the lifetime before `expires_in`
 * runs out (RFC 6749 §5.1), never one for a token without a lifetime.
 */
import { expect, test } from '@playwright/test';
import { refreshAt, TokenCache } from '../../specs/credentials/token-cache.ts';

function counted(expiresIn: number | undefined) {
  const calls: string[] = [];
  let now = 1_000_000;
  const cache = new TokenCache(
    async (identity) => {
      calls.push(identity);
      await new Promise((resolve) => setImmediate(resolve));
      return { token: `${identity}-${calls.length}`, expiresIn };
    },
    () => now,
  );
  return { cache, calls, advance: (ms: number) => (now += ms) };
}

test('twenty concurrent asks for one identity → one token request; all get the same token', async () => {
  const { cache, calls } = counted(60);
  const tokens = await Promise.all(Array.from({ length: 20 }, () => cache.get('admin')));
  expect(calls).toEqual(['admin']);
  expect(new Set(tokens.map((t) => t.token)).size).toBe(1);
});

test('fresh token → no request; past a quarter before expiry → exactly one refresh', async () => {
  const { cache, calls, advance } = counted(4);
  await cache.get('user');
  advance(2_999);
  await cache.get('user');
  expect(calls).toHaveLength(1);
  advance(2);
  const [a, b] = await Promise.all([cache.get('user'), cache.get('user')]);
  expect(calls).toHaveLength(2);
  expect(a.token).toBe('user-2');
  expect(b.token).toBe('user-2');
  expect(cache.issued()).toEqual(['user-1', 'user-2']);
});

test('no lifetime → kept for the whole run; refresh margin is at most a minute', async () => {
  const { cache, calls, advance } = counted(undefined);
  await cache.get('admin');
  advance(10 * 3600_000);
  await cache.get('admin');
  expect(calls).toHaveLength(1);
  expect(refreshAt(0, 3600)).toBe(3600_000 - 60_000);
  expect(refreshAt(0, 4)).toBe(3_000);
});
