/**
 * The authenticator answers at once when nothing has to be verified (mock/auth/types.ts), so the mock's
 * pipeline answers a 401, a 400 or a credential it has verified before from the request event itself, without
 * a promise (docs/performance.md "Toward the machine's limit"). Only a signature check or a password
 * derivation may make it wait. The answers themselves are covered by the scheme tests.
 */
import { expect, test } from '@playwright/test';
import type { Authenticator, Scheme } from '../../../mock/auth/types.ts';
import { authenticator, basicHeader, credentialsOf, expectFailure, expectIdentity, NOW } from './helpers.ts';

const ALL: readonly Scheme[] = ['bearer', 'basic', 'apikey'];
const { bearer, apikey, basic } = credentialsOf('user');
const BASIC = basicHeader(`${basic.username}:${basic.password}`);
let auth: Authenticator;

test.beforeAll(async () => {
  auth = await authenticator();
});

test('no credentials, malformed credentials, a scheme not accepted → answered at once', () => {
  for (const [values, accepted] of [
    [[], ALL],
    [['Bearer not one token68'], ALL],
    [['Digest x'], ALL],
    [[`Apikey ${apikey}`, `Apikey ${apikey}`], ALL],
    [[`Apikey ${apikey}`], ['bearer']],
  ] as const) {
    const result = auth.authenticate(values, accepted, NOW);
    expect(result, JSON.stringify(values)).not.toBeInstanceOf(Promise);
  }
  expectFailure(auth.authenticate([], ALL, NOW) as never, 401, 'missing');
});

test('an API key, known or not → answered at once', () => {
  const known = auth.authenticate([`Apikey ${apikey}`], ALL, NOW);
  expect(known).not.toBeInstanceOf(Promise);
  expectIdentity(known as never);
  expect(auth.authenticate(['Apikey not-a-key-anybody-has'], ALL, NOW)).not.toBeInstanceOf(Promise);
});

test('a Bearer token or Basic credential: the first check waits (signature, scrypt), the repeat is answered at once', async () => {
  for (const value of [`Bearer ${bearer}`, BASIC]) {
    const first = auth.authenticate([value], ALL, NOW);
    expect(first, value.split(' ')[0]).toBeInstanceOf(Promise);
    expectIdentity(await first);
    const again = auth.authenticate([value], ALL, NOW);
    expect(again, value.split(' ')[0]).not.toBeInstanceOf(Promise);
    expectIdentity(again as never);
  }
});
