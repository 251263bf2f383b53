/**
 * The Authorization field itself (RFC 9110 §11.4, §11.1, §5.3): presence, number, scheme, token68 shape.
 * Scheme-specific content is covered in bearer/basic/apikey tests.
 */
import { expect, test } from '@playwright/test';
import { parseAuthorization } from '../../../mock/auth/authorization-header.ts';
import { isToken68 } from '../../../mock/auth/token68.ts';
import type { Authenticator, Scheme } from '../../../mock/auth/types.ts';
import { authenticator, credentialsOf, expectFailure, expectIdentity, NOW } from './helpers.ts';

const ALL: readonly Scheme[] = ['bearer', 'basic', 'apikey'];
let auth: Authenticator;

test.beforeAll(async () => {
  auth = await authenticator();
});

test.describe('presence and number of Authorization fields', () => {
  test('no Authorization header → 401 missing, no scheme', async () => {
    const failure = expectFailure(await auth.authenticate([], ALL, NOW), 401, 'missing');
    expect(failure.scheme).toBeUndefined();
  });

  test('two Authorization fields, both valid → 400 malformed (RFC 9110 §5.3 singleton field)', async () => {
    const { bearer, apikey } = credentialsOf('user');
    const result = await auth.authenticate([`Bearer ${bearer}`, `Apikey ${apikey}`], ALL, NOW);
    expectFailure(result, 400, 'malformed', bearer);
  });

  test('the same valid field twice → 400 malformed', async () => {
    const { bearer } = credentialsOf('user');
    expectFailure(
      await auth.authenticate([`Bearer ${bearer}`, `Bearer ${bearer}`], ALL, NOW),
      400,
      'malformed',
    );
  });

  for (const value of ['', '   ', '\t']) {
    test(`empty field value ${JSON.stringify(value)} → 400 malformed`, async () => {
      expectFailure(await auth.authenticate([value], ALL, NOW), 400, 'malformed');
    });
  }
});

test.describe('scheme', () => {
  test('unknown scheme Digest with auth-params → 401 scheme_not_accepted, no scheme', async () => {
    const value = 'Digest username="bob", realm="gatecheck", nonce="abc", uri="/", response="00"';
    const failure = expectFailure(await auth.authenticate([value], ALL, NOW), 401, 'scheme_not_accepted');
    expect(failure.scheme).toBeUndefined();
  });

  test('a bare token68 without a scheme → 401 scheme_not_accepted (it parses as an unknown scheme)', async () => {
    expectFailure(await auth.authenticate(['dXNlcjpwYXNz'], ALL, NOW), 401, 'scheme_not_accepted');
  });

  test('a scheme named like an Object.prototype member → 401 scheme_not_accepted', async () => {
    for (const name of ['constructor', '__proto__', 'toString']) {
      expectFailure(await auth.authenticate([`${name} abc`], ALL, NOW), 401, 'scheme_not_accepted');
    }
  });

  test('valid Basic credentials on a Bearer-only route → 401 scheme_not_accepted with scheme basic', async () => {
    const { basic } = credentialsOf('admin');
    const value = `Basic ${Buffer.from(`${basic.username}:${basic.password}`).toString('base64')}`;
    const failure = expectFailure(
      await auth.authenticate([value], ['bearer'], NOW),
      401,
      'scheme_not_accepted',
    );
    expect(failure.scheme).toBe('basic');
    expect(failure.reason).toContain('Bearer');
  });

  test('valid Apikey on a Bearer-or-Basic route → 401 scheme_not_accepted', async () => {
    const { apikey } = credentialsOf('user');
    const result = await auth.authenticate([`Apikey ${apikey}`], ['bearer', 'basic'], NOW);
    expectFailure(result, 401, 'scheme_not_accepted', apikey);
  });

  test('an unaccepted scheme wins over its malformed credentials (the scheme is judged first)', async () => {
    expectFailure(await auth.authenticate(['Basic ***'], ['bearer'], NOW), 401, 'scheme_not_accepted');
  });

  for (const spelling of ['bearer', 'BEARER', 'bEaReR', 'Bearer']) {
    test(`scheme spelled ${spelling} → accepted (RFC 9110 §11.1 case-insensitive)`, async () => {
      const { bearer } = credentialsOf('user');
      expect(expectIdentity(await auth.authenticate([`${spelling} ${bearer}`], ALL, NOW)).id).toBe('bob');
    });
  }

  for (const spelling of ['basic', 'BASIC', 'bAsIc']) {
    test(`scheme spelled ${spelling} → accepted`, async () => {
      const { basic } = credentialsOf('admin');
      const token = Buffer.from(`${basic.username}:${basic.password}`).toString('base64');
      expect(expectIdentity(await auth.authenticate([`${spelling} ${token}`], ALL, NOW)).id).toBe('alice');
    });
  }

  for (const spelling of ['apikey', 'APIKEY', 'ApiKey']) {
    test(`scheme spelled ${spelling} → accepted`, async () => {
      const { apikey } = credentialsOf('ratelimit');
      expect(expectIdentity(await auth.authenticate([`${spelling} ${apikey}`], ALL, NOW)).id).toBe('carol');
    });
  }
});

test.describe('separator and token68 shape', () => {
  test('several spaces between scheme and token → accepted (RFC 9110 §11.4 `1*SP`)', async () => {
    const { bearer, apikey } = credentialsOf('user');
    expect(expectIdentity(await auth.authenticate([`Bearer    ${bearer}`], ALL, NOW)).id).toBe('bob');
    expect(expectIdentity(await auth.authenticate([`Apikey  ${apikey}`], ALL, NOW)).id).toBe('bob');
  });

  test('surrounding whitespace is not part of the field value (RFC 9110 §5.5) → accepted', async () => {
    const { bearer } = credentialsOf('user');
    expect(expectIdentity(await auth.authenticate([` \tBearer ${bearer} \t`], ALL, NOW)).id).toBe('bob');
  });

  for (const scheme of ['Bearer', 'Basic', 'Apikey']) {
    test(`${scheme} with nothing after it → 400 malformed`, async () => {
      expectFailure(await auth.authenticate([scheme], ALL, NOW), 400, 'malformed');
      expectFailure(await auth.authenticate([`${scheme}    `], ALL, NOW), 400, 'malformed');
    });
  }

  test('a tab instead of a space after the scheme → 400 malformed (1*SP, not OWS)', async () => {
    const { bearer } = credentialsOf('user');
    expectFailure(await auth.authenticate([`Bearer\t${bearer}`], ALL, NOW), 400, 'malformed', bearer);
  });

  const { bearer: token, apikey: key } = credentialsOf('user');
  const outsideToken68: Record<string, string> = {
    'a space inside': `Bearer ${token.slice(0, 20)} ${token.slice(20)}`,
    'two tokens': `Apikey ${key} ${key}`,
    'a trailing comma': `Bearer ${token},`,
    'a trailing junk character': `Apikey ${key}!`,
    'a quoted string': `Bearer "${token}"`,
    'an auth-param': `Bearer token=${token}`,
    '"=" not at the end': `Apikey ab=cd`,
    'a non-ASCII character': `Apikey ${key}é`,
    'a line break': `Bearer ${token}\r\nX-Injected: 1`,
    'a NUL': `Apikey ${key}\u0000`,
    'leading junk before the scheme': `,Bearer ${token}`,
  };
  for (const [what, value] of Object.entries(outsideToken68)) {
    test(`credentials with ${what} → 400 malformed`, async () => {
      expectFailure(await auth.authenticate([value], ALL, NOW), 400, 'malformed', token);
    });
  }
});

test.describe('misuse throws TypeError', () => {
  test('headerValues not an array of strings', async () => {
    expect(() => auth.authenticate('Bearer x' as unknown as string[], ALL, NOW)).toThrow(TypeError);
    expect(() => auth.authenticate([42 as unknown as string], ALL, NOW)).toThrow(TypeError);
  });

  test('an accepted scheme outside bearer/basic/apikey', async () => {
    expect(() => auth.authenticate([], ['digest' as Scheme], NOW)).toThrow(TypeError);
  });

  test('now not a finite number', async () => {
    expect(() => auth.authenticate([], ALL, Number.NaN)).toThrow(TypeError);
  });
});

test.describe('parsers return undefined/false for bad input', () => {
  test('parseAuthorization splits scheme and rest, lower-casing the scheme', () => {
    expect(parseAuthorization('BeArEr   abc.def')).toEqual({ scheme: 'bearer', credentials: 'abc.def' });
    expect(parseAuthorization('Negotiate')).toEqual({ scheme: 'negotiate', credentials: undefined });
    expect(parseAuthorization('')).toBeUndefined();
    expect(parseAuthorization('Bearer\tabc')).toBeUndefined();
    expect(parseAuthorization('Bea(rer abc')).toBeUndefined();
    expect(() => parseAuthorization(undefined as unknown as string)).toThrow(TypeError);
  });

  test('isToken68 follows RFC 9110 §11.2', () => {
    for (const good of ['a', 'AZaz09-._~+/', 'abc==', 'a=', 'x.y.z'])
      expect(isToken68(good), good).toBe(true);
    for (const bad of ['', '=', '==abc', 'a=b', 'a b', 'a,b', 'a"b', 'ä', 'a\n'])
      expect(isToken68(bad), bad).toBe(false);
  });
});
