/**
 * The hot path: a credential already verified costs no scrypt and no signature check; the caches are
 * bounded; a cached token still dies at its exp (caching never extends a token's life).
 */
import { expect, test } from '@playwright/test';
import type { Scheme } from '../../../mock/auth/types.ts';
import {
  authenticator,
  basicHeader,
  credentialsOf,
  expectFailure,
  expectIdentity,
  LEEWAY,
  mint,
  NOW,
  NOW_S,
} from './helpers.ts';

const ALL: readonly Scheme[] = ['bearer', 'basic', 'apikey'];

/** An authenticator whose slow-path calls are counted per scheme. */
async function counted(cacheSize = 100) {
  const calls = { bearer: 0, basic: 0 };
  const auth = await authenticator({ cacheSize }, { onSlowVerify: (scheme) => calls[scheme]++ });
  return { auth, calls };
}

const { username, password } = credentialsOf('user').basic;
const BOB = basicHeader(`${username}:${password}`);

test.describe('Basic', () => {
  test('second use of the same credential → no second scrypt', async () => {
    const { auth, calls } = await counted();
    expect(expectIdentity(await auth.authenticate([BOB], ALL, NOW)).id).toBe('bob');
    expect(calls.basic).toBe(1);
    expect(expectIdentity(await auth.authenticate([BOB], ALL, NOW)).id).toBe('bob');
    expect(calls.basic).toBe(1);
  });

  test('the key is the exact credential: the unpadded spelling of the same user-pass is a new miss', async () => {
    const { auth, calls } = await counted();
    await auth.authenticate([BOB], ALL, NOW);
    expectIdentity(await auth.authenticate([basicHeader(`${username}:${password}`, 'unpadded')], ALL, NOW));
    expect(calls.basic).toBe(2);
  });

  test('concurrent first uses of one credential → one scrypt', async () => {
    const { auth, calls } = await counted();
    const results = await Promise.all([1, 2, 3, 4].map(() => auth.authenticate([BOB], ALL, NOW)));
    for (const result of results) expect(expectIdentity(result).id).toBe('bob');
    expect(calls.basic).toBe(1);
  });

  test('an unknown user still costs one scrypt, against the dummy hash (timing does not reveal existence)', async () => {
    const dummies: boolean[] = [];
    const auth = await authenticator(
      {},
      { onSlowVerify: (scheme, dummy) => scheme === 'basic' && dummies.push(!!dummy) },
    );
    expectFailure(await auth.authenticate([basicHeader('mallory:x')], ALL, NOW), 401, 'basic_unknown_user');
    expectFailure(await auth.authenticate([basicHeader('bob:guess')], ALL, NOW), 401, 'basic_wrong_password');
    expect(dummies).toEqual([true, false]);
  });

  test('a repeated wrong credential → refused again from the bounded failure cache, no second scrypt', async () => {
    const { auth, calls } = await counted();
    const wrong = basicHeader('bob:not-his-password');
    expectFailure(await auth.authenticate([wrong], ALL, NOW), 401, 'basic_wrong_password');
    expectFailure(await auth.authenticate([wrong], ALL, NOW), 401, 'basic_wrong_password');
    expect(calls.basic).toBe(1);
  });

  test('the caches are bounded: with cacheSize 1, alternating two credentials misses every time', async () => {
    const { auth, calls } = await counted(1);
    const alice = credentialsOf('admin').basic;
    const ALICE = basicHeader(`${alice.username}:${alice.password}`);
    for (const value of [BOB, ALICE, BOB, ALICE]) expectIdentity(await auth.authenticate([value], ALL, NOW));
    expect(calls.basic).toBe(4);
    expectIdentity(await auth.authenticate([ALICE], ALL, NOW));
    expect(calls.basic).toBe(4);
  });

  test('cacheSize 0 → no caching at all', async () => {
    const { auth, calls } = await counted(0);
    for (let i = 0; i < 3; i++) expectIdentity(await auth.authenticate([BOB], ALL, NOW));
    expect(calls.basic).toBe(3);
  });

  test('a malformed credential is refused before any scrypt', async () => {
    const { auth, calls } = await counted();
    expectFailure(await auth.authenticate([basicHeader('no-colon-here')], ALL, NOW), 400, 'malformed');
    expect(calls.basic).toBe(0);
  });
});

test.describe('Bearer', () => {
  test('second use of the same token → no second signature check', async () => {
    const { auth, calls } = await counted();
    const token = await mint();
    expectIdentity(await auth.authenticate([`Bearer ${token}`], ALL, NOW));
    expectIdentity(await auth.authenticate([`Bearer ${token}`], ALL, NOW));
    expect(calls.bearer).toBe(1);
  });

  test('a cached token is refused once now moves past exp + leeway → 401 jwt_expired, and stays refused', async () => {
    const { auth, calls } = await counted();
    const exp = NOW_S + 60;
    const token = await mint({ claims: { exp } });
    const value = `Bearer ${token}`;
    expectIdentity(await auth.authenticate([value], ALL, NOW));
    // Still inside exp + leeway: served from the cache.
    expectIdentity(await auth.authenticate([value], ALL, (exp + LEEWAY - 1) * 1000));
    expect(calls.bearer).toBe(1);
    const failure = expectFailure(
      await auth.authenticate([value], ALL, (exp + LEEWAY) * 1000),
      401,
      'jwt_expired',
    );
    expect(failure.reason).toContain(`${LEEWAY} s ago`);
    expect(calls.bearer).toBe(1);
    expectFailure(await auth.authenticate([value], ALL, (exp + 3600) * 1000), 401, 'jwt_expired');
  });

  test('a cached token is refused when now moves back before nbf − leeway → 401 jwt_not_yet_valid', async () => {
    const { auth } = await counted();
    const nbf = NOW_S - 10;
    const value = `Bearer ${await mint({ claims: { nbf } })}`;
    expectIdentity(await auth.authenticate([value], ALL, NOW));
    expectFailure(await auth.authenticate([value], ALL, (nbf - LEEWAY - 1) * 1000), 401, 'jwt_not_yet_valid');
  });

  test('an invalid token is not cached as valid: a tampered token stays refused on every try', async () => {
    const { auth, calls } = await counted();
    const [header, , signature] = (await mint()).split('.');
    const forged = `Bearer ${header}.${Buffer.from('{"sub":"bob","exp":9999999999}').toString('base64url')}.${signature}`;
    expectFailure(await auth.authenticate([forged], ALL, NOW), 401, 'jwt_signature_invalid');
    expectFailure(await auth.authenticate([forged], ALL, NOW), 401, 'jwt_signature_invalid');
    expect(calls.bearer).toBe(2);
  });
});
