/** `Authorization: Apikey <key>` (seed §5): keys stored as SHA-256, compared in constant time. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { Authenticator, Scheme } from '../../../mock/auth/types.ts';
import { authenticator, credentialsOf, expectFailure, expectIdentity, NOW, SETTINGS } from './helpers.ts';

const ALL: readonly Scheme[] = ['bearer', 'basic', 'apikey'];
let auth: Authenticator;

test.beforeAll(async () => {
  auth = await authenticator();
});

const check = (value: string) => auth.authenticate([value], ALL, NOW);

test("each identity's API key → that identity with its roles and scopes", async () => {
  expect(expectIdentity(await check(`Apikey ${credentialsOf('admin').apikey}`))).toEqual({
    id: 'alice',
    scheme: 'apikey',
    roles: ['admin'],
    scopes: ['users:read', 'users:write'],
  });
  expect(expectIdentity(await check(`Apikey ${credentialsOf('user').apikey}`))).toMatchObject({
    id: 'bob',
    roles: ['user'],
    scopes: ['users:read'],
  });
  expect(expectIdentity(await check(`Apikey ${credentialsOf('ratelimit').apikey}`)).id).toBe('carol');
});

test('identities.json stores only the SHA-256 of each key, never the key', () => {
  const stored = readFileSync(SETTINGS.identitiesPath, 'utf8');
  for (const role of ['admin', 'user', 'ratelimit'] as const) {
    const key = credentialsOf(role).apikey;
    expect(stored).not.toContain(key);
    expect(stored).toContain(createHash('sha256').update(key).digest('hex'));
  }
});

test('an unknown key → 401 apikey_unknown, reason without the key', async () => {
  const key = 'gck_ThisKeyWasNeverIssuedByTheMock0123456789';
  expectFailure(await check(`Apikey ${key}`), 401, 'apikey_unknown', key);
});

test('a valid key with one character changed → 401 apikey_unknown', async () => {
  const key = credentialsOf('user').apikey;
  const altered = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
  expectFailure(await check(`Apikey ${altered}`), 401, 'apikey_unknown', altered);
});

test('a valid key with a suffix or prefix → 401 apikey_unknown (whole-key match only)', async () => {
  const key = credentialsOf('user').apikey;
  expectFailure(await check(`Apikey ${key}x`), 401, 'apikey_unknown', key);
  expectFailure(await check(`Apikey x${key}`), 401, 'apikey_unknown', key);
});

test('the hex digest of a valid key sent as the key → 401 (digests are not keys)', async () => {
  const digest = createHash('sha256').update(credentialsOf('user').apikey).digest('hex');
  expectFailure(await check(`Apikey ${digest}`), 401, 'apikey_unknown', digest);
});

test('a key with characters outside token68 → 400 malformed, scheme apikey', async () => {
  const failure = expectFailure(await check('Apikey key:with:colons'), 400, 'malformed');
  expect(failure.scheme).toBe('apikey');
});

test('a valid API key sent under the Bearer scheme → 401 (it is no JWT)', async () => {
  const key = credentialsOf('user').apikey;
  expectFailure(await check(`Bearer ${key}`), 401, 'jwt_invalid', key);
});
