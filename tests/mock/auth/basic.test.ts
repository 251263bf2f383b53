/**
 * Basic credentials (RFC 7617 §2): base64 of user-id ":" password, UTF-8, first colon splits, no control
 * characters; scrypt-hashed passwords; unknown user and wrong password alike → 401.
 */
import { expect, test } from '@playwright/test';
import { decodeStrictBase64 } from '../../../mock/auth/base64.ts';
import type { Authenticator, Scheme } from '../../../mock/auth/types.ts';
import { authenticator, basicHeader, credentialsOf, expectFailure, expectIdentity, NOW } from './helpers.ts';

const BASIC: readonly Scheme[] = ['basic'];
let auth: Authenticator;

test.beforeAll(async () => {
  auth = await authenticator();
});

const check = (value: string) => auth.authenticate([value], BASIC, NOW);

test.describe('valid credentials', () => {
  test('alice → admin with users:read and users:write', async () => {
    const { username, password } = credentialsOf('admin').basic;
    expect(expectIdentity(await check(basicHeader(`${username}:${password}`)))).toEqual({
      id: 'alice',
      scheme: 'basic',
      roles: ['admin'],
      scopes: ['users:read', 'users:write'],
    });
  });

  test('bob, whose password holds ":" and "ä" (first colon splits, UTF-8) → user', async () => {
    const { username, password } = credentialsOf('user').basic;
    expect(password).toContain(':');
    expect(password).toMatch(/[^\x20-\x7e]/);
    expect(expectIdentity(await check(basicHeader(`${username}:${password}`)))).toMatchObject({
      id: 'bob',
      roles: ['user'],
      scopes: ['users:read'],
    });
  });

  test('carol → user (the rate-limit identity)', async () => {
    const { username, password } = credentialsOf('ratelimit').basic;
    expect(expectIdentity(await check(basicHeader(`${username}:${password}`))).id).toBe('carol');
  });

  test('unpadded base64 → accepted (decision: many clients omit "=")', async () => {
    const { username, password } = credentialsOf('admin').basic;
    const value = basicHeader(`${username}:${password}`, 'unpadded');
    expect(value.endsWith('=')).toBe(false);
    expect(expectIdentity(await check(value)).id).toBe('alice');
  });

  test('bob\'s password in decomposed form (NFD "a" + U+0308) → accepted (RFC 8265 OpaqueString NFC)', async () => {
    const { username, password } = credentialsOf('user').basic;
    const decomposed = password.normalize('NFD');
    expect(decomposed).not.toBe(password);
    expect(expectIdentity(await check(basicHeader(`${username}:${decomposed}`))).id).toBe('bob');
  });
});

test.describe('well-formed but wrong → 401', () => {
  test("alice with bob's password → 401 basic_wrong_password", async () => {
    const value = basicHeader(`alice:${credentialsOf('user').basic.password}`);
    expectFailure(await check(value), 401, 'basic_wrong_password', value);
  });

  test('bob with his password cut at its colon → 401 basic_wrong_password', async () => {
    const { password } = credentialsOf('user').basic;
    expectFailure(await check(basicHeader(`bob:${password.split(':')[0]}`)), 401, 'basic_wrong_password');
  });

  test('unknown user → 401 basic_unknown_user with the same reason as a wrong password', async () => {
    const unknown = expectFailure(await check(basicHeader('mallory:whatever')), 401, 'basic_unknown_user');
    const wrong = expectFailure(await check(basicHeader('alice:whatever')), 401, 'basic_wrong_password');
    expect(unknown.reason).toBe(wrong.reason);
  });

  test('user-id in another case → 401 (user-ids keep their case: UsernameCasePreserved, RFC 8265 §3.3)', async () => {
    const { password } = credentialsOf('admin').basic;
    expectFailure(await check(basicHeader(`Alice:${password}`)), 401, 'basic_unknown_user');
  });

  test('empty user-id and password (":") → 401 basic_unknown_user', async () => {
    expectFailure(await check(basicHeader(':')), 401, 'basic_unknown_user');
  });

  test('the password never appears in the reason', async () => {
    const value = basicHeader('alice:SuperSecretGuess123');
    const failure = expectFailure(await check(value), 401, 'basic_wrong_password', value);
    expect(failure.reason).not.toContain('SuperSecret');
  });
});

test.describe('malformed → 400', () => {
  const cases: Record<string, string> = {
    'no colon after decoding': basicHeader('alicewonderland'),
    'base64url alphabet ("-" and "_")': `Basic ${Buffer.from('a?>~:pass?>~').toString('base64url')}`,
    'a dangling single character (length ≡ 1 mod 4)': 'Basic YWxpY2U6eHl6A',
    'excess padding ("===")': `Basic ${Buffer.from('ab:c').toString('base64')}==`,
    'padding where none is due': `Basic ${Buffer.from('abc:').toString('base64')}=`,
    'non-zero pad bits ("YR==" for "a")': 'Basic YR==',
    'invalid UTF-8 (ISO-8859-1 "ä")': `Basic ${Buffer.from('bob:p\xe4ss', 'latin1').toString('base64')}`,
    'a lone UTF-8 continuation byte': `Basic ${Buffer.concat([Buffer.from('bob:'), Buffer.from([0x80])]).toString('base64')}`,
    'a NUL in the password': basicHeader('alice:pass\u0000word'),
    'a tab in the password': basicHeader('alice:pass\tword'),
    'DEL in the user-id': basicHeader('ali\u007fce:password'),
    'a line feed in the user-id': basicHeader('ali\nce:password'),
  };
  test('the base64url case really uses "-" or "_", which token68 allows but base64 does not', () => {
    expect(cases['base64url alphabet ("-" and "_")']).toMatch(/[-_]/);
  });

  for (const [what, value] of Object.entries(cases)) {
    test(`${what} → 400 malformed, scheme basic`, async () => {
      const failure = expectFailure(await check(value), 400, 'malformed', value.slice(6));
      expect(failure.scheme).toBe('basic');
    });
  }

  test('strict base64 decoder: padded and unpadded accepted; lenient forms refused', () => {
    expect(decodeStrictBase64('YWxpY2U6eA==')?.toString()).toBe('alice:x');
    expect(decodeStrictBase64('YWxpY2U6eA')?.toString()).toBe('alice:x');
    expect(decodeStrictBase64('YWxpY2U6eHk=')?.toString()).toBe('alice:xy');
    expect(decodeStrictBase64('YWxpY2U6eHk')?.toString()).toBe('alice:xy');
    for (const bad of [
      'YWxpY2U6eA=',
      'YWxpY2U6eA===',
      'YWxp Y2U6',
      'YWxpY2U6e',
      'YW=xpY2U6',
      'YWxp-2U6',
      'YR==',
      'YWJ=',
    ]) {
      expect(decodeStrictBase64(bad), bad).toBeUndefined();
    }
  });
});
