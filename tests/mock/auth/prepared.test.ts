/**
 * What an Authorization value decides by itself is remembered per connection (mock/auth/prepared.ts): the same
 * value on the same connection is not parsed, checked and hashed again. What must hold: the memory is only
 * ever used for the very same value on the very same connection, and the verification is never remembered.
 */
import { expect, test } from '@playwright/test';
import { sha256 } from '../../../mock/auth/digest.ts';
import { lastPerConnection, prepareAuthorization } from '../../../mock/auth/prepared.ts';
import type { Authenticator, Scheme } from '../../../mock/auth/types.ts';
import {
  authenticator,
  basicHeader,
  credentialsOf,
  expectFailure,
  expectIdentity,
  mint,
  NOW,
  NOW_S,
} from './helpers.ts';

const ALL: readonly Scheme[] = ['bearer', 'basic', 'apikey'];
const user = credentialsOf('user');
let auth: Authenticator;

test.beforeAll(async () => {
  auth = await authenticator();
});

test('a value is split as RFC 9110 §11.4 says: scheme case-insensitive, token68 or nothing, its digest', () => {
  const bearer = prepareAuthorization('BeArEr abc.DEF-_~+/==');
  expect([bearer.wellFormed, bearer.scheme, bearer.token68]).toEqual([true, 'bearer', 'abc.DEF-_~+/==']);
  expect(bearer.digest).toBe(sha256('abc.DEF-_~+/=='));
  expect(bearer.digestBytes.toString('latin1')).toBe(bearer.digest);
  // Not `auth-scheme [ 1*SP credentials ]`: a tab after the scheme.
  expect(prepareAuthorization('Bearer\tabc').wellFormed).toBe(false);
  // Well formed, but the credentials are not one token68, or absent.
  expect(prepareAuthorization('Basic a b')).toMatchObject({
    wellFormed: true,
    scheme: 'basic',
    token68: undefined,
  });
  expect(prepareAuthorization('Apikey')).toMatchObject({
    wellFormed: true,
    scheme: 'apikey',
    token68: undefined,
  });
  // A scheme the mock does not know, including names an object literal would find.
  expect(prepareAuthorization('constructor abc').scheme).toBeUndefined();
  expect(prepareAuthorization('Digest abc').scheme).toBeUndefined();
});

test('the same value on the same connection is prepared once; another value or connection is not served it', () => {
  const prepared = lastPerConnection();
  const one = {};
  const other = {};
  const first = prepared('Bearer aaa', one);
  expect(prepared('Bearer aaa', one)).toBe(first);
  const changed = prepared('Bearer bbb', one);
  expect(changed).not.toBe(first);
  expect(changed.token68).toBe('bbb');
  expect(prepared('Bearer aaa', one).token68).toBe('aaa');
  expect(prepared('Bearer aaa', other)).not.toBe(prepared('Bearer aaa', one));
  // Without a connection nothing is remembered.
  expect(prepared('Bearer aaa', undefined)).not.toBe(prepared('Bearer aaa', undefined));
});

test('on one connection, each request is judged on its own value: good, bad, good again, per scheme', async () => {
  const connection = {};
  const check = (value: string) => auth.authenticate([value], ALL, NOW, connection);
  const bearer = `Bearer ${user.bearer}`;
  const apikey = `Apikey ${user.apikey}`;
  const basic = basicHeader(`${user.basic.username}:${user.basic.password}`);
  const wrongSignature = `Bearer ${user.bearer.slice(0, -4)}AAAA`;
  for (const [good, bad, code] of [
    [bearer, wrongSignature, 'jwt_signature_invalid'],
    [apikey, 'Apikey not-a-key-anybody-has', 'apikey_unknown'],
    [basic, basicHeader(`${user.basic.username}:not-the-password`), 'basic_wrong_password'],
    [bearer, 'Bearer not one token68', 'malformed'],
  ] as const) {
    expectIdentity(await check(good));
    expectFailure(await check(bad), code === 'malformed' ? 400 : 401, code);
    expectIdentity(await check(good));
  }
});

test('a remembered value is verified again: a token that expired since is refused on the same connection', async () => {
  const connection = {};
  const token = `Bearer ${await mint({ claims: { exp: NOW_S + 60 } })}`;
  expectIdentity(await auth.authenticate([token], ALL, NOW, connection));
  // Two minutes later, past the token's end and the 30 s leeway: the same value, the same connection.
  expectFailure(await auth.authenticate([token], ALL, NOW + 120_000, connection), 401, 'jwt_expired');
});

test('misuse is refused with a TypeError: an accepted list naming no scheme of the mock, a connection that is not an object', () => {
  for (const accepted of [['constructor'], ['Bearer'], ['digest'], ['__proto__']]) {
    expect(() => auth.authenticate([], accepted as never, NOW), accepted[0]).toThrow(TypeError);
  }
  expect(() => auth.authenticate([], ALL, NOW, 'socket' as never)).toThrow(/connection must be an object/);
  expect(() => auth.authenticate([], ALL, NOW, null as never)).toThrow(/connection must be an object/);
});
