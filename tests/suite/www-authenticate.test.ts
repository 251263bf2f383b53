/** The WWW-Authenticate parser against RFC 9110 §11.6.1 / §11.2, RFC 6750 §3 and RFC 7617 §2 examples. */
import { expect, test } from '@playwright/test';
import { challengesFor, param, parseWwwAuthenticate } from '../../specs/lib/www-authenticate.ts';

test('RFC 9110 §11.6.1 example: two challenges, quoted-pair, token and quoted values', () => {
  const parsed = parseWwwAuthenticate(
    'Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"',
  );
  expect(parsed).toEqual([
    {
      scheme: 'Newauth',
      schemeLower: 'newauth',
      params: [
        { name: 'realm', value: 'apps', quoted: true },
        { name: 'type', value: '1', quoted: false },
        { name: 'title', value: 'Login to "apps"', quoted: true },
      ],
    },
    { scheme: 'Basic', schemeLower: 'basic', params: [{ name: 'realm', value: 'simple', quoted: true }] },
  ]);
});

test('RFC 6750 §3 and RFC 7617 §2.1 challenges', () => {
  const bearer = parseWwwAuthenticate(
    'Bearer realm="example", error="invalid_token", error_description="The access token expired"',
  );
  expect(bearer?.length).toBe(1);
  expect(param(bearer?.[0] ?? { scheme: '', schemeLower: '', params: [] }, 'ERROR')).toBe('invalid_token');
  const basic = parseWwwAuthenticate('Basic realm="foo", charset="UTF-8"');
  expect(basic?.[0]?.params.map((p) => [p.name, p.value])).toEqual([
    ['realm', 'foo'],
    ['charset', 'UTF-8'],
  ]);
});

test('token68, bare schemes, several field lines, empty list elements, BWS around "="', () => {
  expect(parseWwwAuthenticate('Negotiate a87421000492aa874209af8bc028==')?.[0]?.token68).toBe(
    'a87421000492aa874209af8bc028==',
  );
  expect(parseWwwAuthenticate('Negotiate abc=, Basic realm="x"')?.map((c) => c.scheme)).toEqual([
    'Negotiate',
    'Basic',
  ]);
  expect(parseWwwAuthenticate('Bearer')).toEqual([{ scheme: 'Bearer', schemeLower: 'bearer', params: [] }]);
  expect(parseWwwAuthenticate('Bearer, Apikey')?.map((c) => c.scheme)).toEqual(['Bearer', 'Apikey']);
  const lines = parseWwwAuthenticate([
    'Bearer realm="a"',
    'Basic realm="b", charset="UTF-8"',
    'Apikey realm="c"',
  ]);
  expect(lines?.map((c) => c.scheme)).toEqual(['Bearer', 'Basic', 'Apikey']);
  expect(challengesFor(lines ?? [], 'BASIC').length).toBe(1);
  expect(
    parseWwwAuthenticate(' , Bearer realm="a" ,, error="x" , Basic realm="b",')?.map((c) => c.params.length),
  ).toEqual([2, 1]);
  expect(parseWwwAuthenticate('Bearer realm = "x"')?.[0]?.params[0]).toEqual({
    name: 'realm',
    value: 'x',
    quoted: true,
  });
  expect(parseWwwAuthenticate('')).toEqual([]);
  // `realm=` with nothing after it is not an auth-param but a valid token68.
  expect(parseWwwAuthenticate('Bearer realm=')?.[0]?.token68).toBe('realm=');
});

test('an unquoted realm parses, marked as not quoted (RFC 9110 §11.5 judges it, not the parser)', () => {
  expect(parseWwwAuthenticate('Basic realm=simple')?.[0]?.params[0]).toEqual({
    name: 'realm',
    value: 'simple',
    quoted: false,
  });
});

test('malformed values give undefined, never an exception', () => {
  for (const bad of [
    'Bearer realm="unterminated',
    'realm="x"',
    'Bearer realm="a" error="b"',
    'Bearer realm="a", realm="b"',
    'Bearer, realm="x"',
    'Bearer realm="a\u0001"',
    'Bearer ab cd',
    '"Bearer"',
    'Bearer =abc',
  ]) {
    expect(parseWwwAuthenticate(bad), bad).toBeUndefined();
  }
  expect(parseWwwAuthenticate(['Bearer', 'Basic realm="x" junk'])).toBeUndefined();
  expect(() => parseWwwAuthenticate(42 as unknown as string)).toThrow(TypeError);
});
