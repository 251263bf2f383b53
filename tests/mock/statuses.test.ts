/**
 * The mock over HTTP: every status the seed names, for every scheme, with the challenges and problem+json
 * bodies docs/design.md fixes ("Status choices", "Error bodies", "Order of checks").
 */

import { expect, test } from '@playwright/test';
import { startMock } from '../../mock/server.ts';
import { mockForTests } from '../helpers/mock-for-tests.ts';
import {
  ADMIN,
  type Answer,
  authorization,
  b64url,
  call,
  challengeSummary,
  challenges,
  expectNoLeak,
  expectProblem,
  MALFORMED,
  mint,
  PROFILE,
  PUBLIC,
  param,
  SCHEMES,
  type SchemeName,
  USER,
  WRONG,
} from './mock-support.ts';

const mock = mockForTests();

const get = (path: string, headers?: Record<string, string | string[]>): Promise<Answer> =>
  call(mock.url, 'GET', path, { headers });
const send = (method: string, path: string, headers: Record<string, string | string[]>, body?: unknown) =>
  call(mock.url, method, path, {
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

/** The one challenge per scheme of a route, in policy order, with its `error` parameter. */
const plain = (...schemes: SchemeName[]) => schemes.map((s) => [s, undefined]);

test.describe('200: the seed §4 examples and rule 2 (GET, POST, PUT, DELETE succeed with 200)', () => {
  test('GET /users without Authorization → 200 with the users collection as JSON', async () => {
    const answer = await get('/users');
    expect(answer.status).toBe(200);
    expect(answer.header('content-type')).toBe('application/json; charset=utf-8');
    const users = JSON.parse(answer.text) as Array<{ id: string }>;
    expect(users.length).toBeGreaterThanOrEqual(5);
    expect(users.map((u) => u.id)).toContain('1');
  });

  test('GET /users/1 → 200 with that item; json-server filters (?name:contains=) work', async () => {
    expect((await get('/users/1')).json()).toMatchObject({ id: '1', name: 'Alice Admin' });
    const answer = await get('/users?name:contains=bob');
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.text) as Array<{ id: string }>).map((u) => u.id)).toEqual(['2']);
  });

  for (const scheme of ['bearer', 'basic'] as const) {
    for (const [who, identity] of [
      ['admin', ADMIN],
      ['user', USER],
    ] as const) {
      test(`GET /protected with the ${who}'s ${scheme} credentials → 200 with the resource`, async () => {
        const answer = await get('/protected', { authorization: authorization(identity, scheme) });
        expect(answer.status, answer.text).toBe(200);
        expect(answer.json()).toHaveProperty('message');
      });
    }
  }

  test('GET /admin with the admin Bearer token (RS256 demo token, and a fresh ES256 one) → 200', async () => {
    expect((await get('/admin', { authorization: authorization(ADMIN, 'bearer') })).status).toBe(200);
    const es256 = await mint(ADMIN.jwtClaims, { alg: 'ES256' });
    expect((await get('/admin', { authorization: `Bearer ${es256}` })).status).toBe(200);
  });

  for (const scheme of SCHEMES) {
    test(`POST, GET, PUT, PATCH, DELETE on /users with the admin's ${scheme} credentials → 200 each (POST is 200, not 201)`, async () => {
      const auth = { authorization: authorization(ADMIN, scheme) };
      const ids = async () =>
        (JSON.parse((await get('/users')).text) as Array<{ id: string }>).map((u) => u.id);
      const before = await ids();
      const created = await send('POST', '/users', auth, {
        name: `Probe ${scheme}`,
        email: 'p@example.test',
      });
      expect(created.status, created.text).toBe(200);
      const item = created.json() as { id: string; name: string };
      expect(item.name).toBe(`Probe ${scheme}`);
      expect(typeof item.id).toBe('string');
      // GET /users reflects each write at once (the serialisation cache is invalidated by every write).
      expect(await ids()).toEqual([...before, item.id]);

      expect((await get(`/users/${item.id}`)).json()).toMatchObject({ name: `Probe ${scheme}` });

      const put = await send('PUT', `/users/${item.id}`, auth, { name: 'Replaced' });
      expect(put.status, put.text).toBe(200);
      expect(put.json()).toEqual({ id: item.id, name: 'Replaced' });

      const patched = await send('PATCH', `/users/${item.id}`, auth, { email: 'patched@example.test' });
      expect(patched.status, patched.text).toBe(200);
      expect(patched.json()).toEqual({ id: item.id, name: 'Replaced', email: 'patched@example.test' });

      const deleted = await call(mock.url, 'DELETE', `/users/${item.id}`, { headers: auth });
      expect(deleted.status, deleted.text).toBe(200);
      expect(deleted.json()).toMatchObject({ id: item.id });

      expectProblem(await get(`/users/${item.id}`), 404);
      expect(await ids()).toEqual(before);
    });
  }

  test('HEAD /users → 200 with the headers of GET (Content-Length included) and no body', async () => {
    const got = await get('/users');
    const head = await call(mock.url, 'HEAD', '/users');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.header('content-length')).toBe(got.header('content-length'));
    expect(head.header('content-type')).toBe(got.header('content-type'));
  });

  test('HEAD /admin follows GET: 401 without credentials, 200 with the admin token', async () => {
    expect((await call(mock.url, 'HEAD', '/admin')).status).toBe(401);
    const ok = await call(mock.url, 'HEAD', '/admin', {
      headers: { authorization: authorization(ADMIN, 'bearer') },
    });
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('');
  });
});

test.describe('OPTIONS: 204 with Allow, answered before credentials (CORS preflight)', () => {
  test('OPTIONS /users → 204, Allow lists GET, POST, HEAD, OPTIONS', async () => {
    const answer = await call(mock.url, 'OPTIONS', '/users');
    expect(answer.status).toBe(204);
    expect(answer.header('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
  });

  test('a CORS preflight for GET /admin (no Authorization, as browsers send it) → 204, Authorization allowed', async () => {
    const answer = await call(mock.url, 'OPTIONS', '/admin', {
      headers: {
        origin: 'https://app.example.test',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(answer.status).toBe(204);
    expect(answer.header('allow')).toBe('GET, HEAD, OPTIONS');
    expect(answer.header('access-control-allow-origin')).toBe('*');
    expect(answer.header('access-control-allow-headers')).toMatch(/Authorization/);
  });
});

test.describe('404: unknown path or id (RFC 9110 §15.5.5)', () => {
  test('GET an unknown path → 404 problem+json, before any credential check', async () => {
    expectProblem(await get('/gatecheck-no-such-path'), 404);
    expectProblem(await get('/gatecheck-no-such-path', { authorization: MALFORMED.bearer }), 404);
    expectProblem(await get('/users/1/extra'), 404);
    expectProblem(await get('/users/'), 404);
  });

  test('GET /users/<unknown id> → 404 problem+json', async () => {
    expectProblem(await get('/users/gatecheck-no-such-id'), 404);
  });

  for (const scheme of SCHEMES) {
    test(`PUT, PATCH and DELETE /users/<unknown id> with the admin's ${scheme} credentials → 404`, async () => {
      const auth = { authorization: authorization(ADMIN, scheme) };
      expectProblem(await send('PUT', '/users/gatecheck-no-such-id', auth, { name: 'x' }), 404);
      expectProblem(await send('PATCH', '/users/gatecheck-no-such-id', auth, { name: 'x' }), 404);
      expectProblem(await call(mock.url, 'DELETE', '/users/gatecheck-no-such-id', { headers: auth }), 404);
    });
  }
});

test.describe('405: known path, unsupported method → Allow (RFC 9110 §15.5.6)', () => {
  for (const [method, path, allow] of [
    ['DELETE', '/protected', 'GET, HEAD, OPTIONS'],
    ['POST', '/admin', 'GET, HEAD, OPTIONS'],
    ['DELETE', '/users', 'GET, POST, HEAD, OPTIONS'],
    ['PUT', '/users', 'GET, POST, HEAD, OPTIONS'],
    ['POST', '/users/1', 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS'],
    ['PROPFIND', '/users', 'GET, POST, HEAD, OPTIONS'],
  ] as const) {
    test(`${method} ${path} → 405 with Allow: ${allow}, without credentials and with the admin's of each scheme`, async () => {
      const variants: Array<Record<string, string>> = [
        {},
        ...SCHEMES.map((scheme) => ({ authorization: authorization(ADMIN, scheme) })),
      ];
      for (const headers of variants) {
        const answer = await call(mock.url, method, path, { headers });
        const body = expectProblem(answer, 405);
        expect(answer.header('allow')).toBe(allow);
        expect(body.detail).toContain(allow);
      }
    });
  }
});

test.describe('401: authentication required (seed §5 rule 2; RFC 9110 §11.6.1; RFC 6750 §3)', () => {
  test('GET /protected without Authorization → 401, one challenge per accepted scheme, no error code', async () => {
    const answer = await get('/protected');
    expectProblem(answer, 401);
    // One field line per challenge, in policy order.
    expect(answer.all('www-authenticate')).toEqual([
      'Bearer realm="gatecheck"',
      'Basic realm="gatecheck", charset="UTF-8"',
    ]);
    expect(challengeSummary(answer)).toEqual(plain('bearer', 'basic'));
    for (const c of challenges(answer)) {
      expect(c.params.find((p) => p.name === 'realm')?.quoted).toBe(true); // RFC 9110 §11.5: realm is quoted
    }
  });

  test('POST /users without Authorization → 401 with Bearer, Basic and Apikey challenges', async () => {
    const answer = await send('POST', '/users', {}, { name: 'x' });
    expectProblem(answer, 401);
    expect(challengeSummary(answer)).toEqual(plain('bearer', 'basic', 'apikey'));
    expect(answer.all('www-authenticate')).toContain('Apikey realm="gatecheck"');
  });

  test('GET /admin without Authorization → 401 with the Bearer challenge only', async () => {
    const answer = await get('/admin');
    expectProblem(answer, 401);
    expect(challengeSummary(answer)).toEqual(plain('bearer'));
  });

  test('GET /protected with an Apikey (a scheme the route does not accept) → 401, plain challenges', async () => {
    const answer = await get('/protected', { authorization: authorization(ADMIN, 'apikey') });
    expect(expectProblem(answer, 401).code).toBe('scheme_not_accepted');
    expect(challengeSummary(answer)).toEqual(plain('bearer', 'basic'));
  });

  for (const scheme of SCHEMES) {
    test(`POST /users with well-formed but wrong ${scheme} credentials → 401, error only on the ${scheme} challenge (none for Basic)`, async () => {
      const answer = await send('POST', '/users', { authorization: WRONG[scheme] }, { name: 'x' });
      expectProblem(answer, 401);
      const expected = SCHEMES.map((s) => [s, s === scheme && s !== 'basic' ? 'invalid_token' : undefined]);
      expect(challengeSummary(answer)).toEqual(expected);
      expect(answer.text).not.toContain(WRONG[scheme].split(' ')[1]);
    });
  }

  test('a Bearer token that fails carries error="invalid_token" and an error_description (RFC 6750 §3)', async () => {
    const answer = await get('/protected', { authorization: WRONG.bearer });
    const [bearer] = challenges(answer);
    expect(bearer?.schemeLower).toBe('bearer');
    expect(param(bearer as never, 'error')).toBe('invalid_token');
    expect(param(bearer as never, 'error_description')).toBeTruthy();
    expect(param(bearer as never, 'realm')).toBe('gatecheck');
  });

  test('error_description spells "§" as "section" (RFC 6750 §3 allows printable ASCII only) instead of dropping it', async () => {
    const answer = await get('/protected', { authorization: MALFORMED.bearer });
    expect(answer.status).toBe(400);
    const description = param(challenges(answer)[0] as never, 'error_description');
    expect(description).toContain('(RFC 6750 section 2.1)');
    expect(description).toMatch(/^[\x20\x21\x23-\x5B\x5D-\x7E]+$/);
    expect(description).not.toContain('  ');
  });

  test.describe('Bearer attacks (RFC 8725) → 401 invalid_token', () => {
    const claims = ADMIN.jwtClaims;
    const header = (alg: string) => b64url({ alg, typ: 'JWT', kid: PUBLIC.keys[0]?.kid });
    const payload = () =>
      b64url({ iss: PROFILE.jwt?.issuer, aud: PROFILE.jwt?.audience, exp: 4102444800, ...claims });
    const attacks: Array<[string, () => Promise<string>]> = [
      ['alg "none", unsigned', async () => `${header('none')}.${payload()}.`],
      ['alg "NoNe", unsigned', async () => `${header('NoNe')}.${payload()}.`],
      [
        'HS256 signed with the RSA public key as the HMAC secret (key confusion)',
        async () => {
          const { createHmac } = await import('node:crypto');
          const input = `${header('HS256')}.${payload()}`;
          const secret = JSON.stringify(PUBLIC.keys[0]);
          return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
        },
      ],
      ['signature stripped', async () => (await mint(claims)).split('.').slice(0, 2).join('.')],
      ['signature emptied', async () => `${(await mint(claims)).split('.').slice(0, 2).join('.')}.`],
      ['signature truncated', async () => (await mint(claims)).slice(0, -10)],
      [
        'payload changed after signing (roles)',
        async () => {
          const [h, , s] = (await mint(USER.jwtClaims)).split('.');
          return `${h}.${payload()}.${s}`;
        },
      ],
      ['expired an hour ago', () => mint(claims, { expiresIn: -3600 })],
      ['not valid for another hour', () => mint(claims, { notBefore: 3600 })],
      ['wrong audience', () => mint({ ...claims, aud: 'someone-else' })],
      ['wrong issuer', () => mint({ ...claims, iss: 'https://evil.example/' })],
    ];
    for (const [name, make] of attacks) {
      test(`GET /admin with a token: ${name} → 401 with error="invalid_token"`, async () => {
        const token = await make();
        const answer = await get('/admin', { authorization: `Bearer ${token}` });
        // A token that is not token68 (e.g. stripped to two parts is still token68) would be 400; these are all 401.
        expectProblem(answer, 401);
        expect(challengeSummary(answer)).toEqual([['bearer', 'invalid_token']]);
        expect(answer.text).not.toContain(token);
      });
    }
  });

  test('the injectable clock reaches the verifier: at year 2200 the ten-year demo token has expired', async () => {
    const later = await startMock({ port: 0, clock: () => Date.UTC(2200, 0, 1) });
    try {
      const answer = await call(later.url, 'GET', '/admin', {
        headers: { authorization: authorization(ADMIN, 'bearer') },
      });
      expect(expectProblem(answer, 401).code).toBe('jwt_expired');
    } finally {
      await later.close();
    }
  });
});

test.describe('400: malformed credentials → invalid_request (docs/design.md "Status choices")', () => {
  for (const scheme of SCHEMES) {
    test(`POST /users with malformed ${scheme} credentials ("${MALFORMED[scheme]}") → 400 problem+json with challenges`, async () => {
      const answer = await send('POST', '/users', { authorization: MALFORMED[scheme] }, { name: 'x' });
      expect(expectProblem(answer, 400).code).toBe('malformed');
      const expected = SCHEMES.map((s) => [s, s === scheme && s !== 'basic' ? 'invalid_request' : undefined]);
      expect(challengeSummary(answer)).toEqual(expected);
    });
  }

  test('GET /protected with two Authorization field lines (both valid) → 400 invalid_request', async () => {
    const both = [authorization(ADMIN, 'bearer'), authorization(ADMIN, 'basic')];
    const answer = await get('/protected', { authorization: both });
    expectProblem(answer, 400);
    expect(challengeSummary(answer)).toEqual([
      ['bearer', 'invalid_request'],
      ['basic', undefined],
    ]);
  });

  test('GET /admin with "Bearer" and no token → 400 with Bearer error="invalid_request"', async () => {
    const answer = await get('/admin', { authorization: 'Bearer' });
    expectProblem(answer, 400);
    expect(challengeSummary(answer)).toEqual([['bearer', 'invalid_request']]);
  });

  test('an Authorization header on a public route is ignored: GET /users with malformed credentials → 200', async () => {
    expect((await get('/users', { authorization: MALFORMED.bearer })).status).toBe(200);
  });
});

test.describe('400: malformed or non-object JSON bodies on writes; 413 when too large', () => {
  const admin = { authorization: authorization(ADMIN, 'bearer') };
  for (const [name, body] of [
    ['truncated JSON', '{"name":'],
    ['not JSON at all', 'name=x'],
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"x"'],
    ['JSON null', 'null'],
    ['an empty body', ''],
  ] as const) {
    for (const [method, path] of [
      ['POST', '/users'],
      ['PUT', '/users/2'],
      ['PATCH', '/users/2'],
    ] as const) {
      test(`${method} ${path} with ${name} → 400 problem+json, the input not echoed`, async () => {
        const answer = await send(method, path, admin, body);
        const problem = expectProblem(answer, 400);
        if (body.length > 2) expect(String(problem.detail)).not.toContain(body);
      });
    }
  }

  test('POST /users with invalid UTF-8 in the body → 400', async () => {
    const answer = await call(mock.url, 'POST', '/users', {
      headers: { ...admin, 'content-type': 'application/json' },
      body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
    });
    expectProblem(answer, 400);
  });

  test('POST /users with a 200 KiB body (limit 100 KiB) → 413 problem+json; the mock still answers', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(200 * 1024) });
    expectProblem(await send('POST', '/users', admin, big), 413);
    expect((await get('/users')).status).toBe(200);
  });

  test('a malformed body is not read before credentials: POST /users without Authorization → 401, not 400', async () => {
    expectProblem(await send('POST', '/users', {}, '{"name":'), 401);
  });
});

test.describe('403: authenticated but not authorised; authenticating again does not change it (seed §7)', () => {
  test('GET /admin with the user Bearer token → 403 insufficient_scope; the same and a fresh token → 403 again', async () => {
    const first = await get('/admin', { authorization: authorization(USER, 'bearer') });
    const body = expectProblem(first, 403);
    expect(body.requiredRoles).toEqual(['admin']);
    expect(challengeSummary(first)).toEqual([['bearer', 'insufficient_scope']]);

    const again = await get('/admin', { authorization: authorization(USER, 'bearer') });
    expectProblem(again, 403);
    const fresh = await mint(USER.jwtClaims, { alg: 'ES256' });
    expectProblem(await get('/admin', { authorization: `Bearer ${fresh}` }), 403);
  });

  for (const scheme of SCHEMES) {
    test(`POST /users with the user's ${scheme} credentials (no users:write scope) → 403, and again 403`, async () => {
      for (let i = 0; i < 2; i++) {
        const answer = await send(
          'POST',
          '/users',
          { authorization: authorization(USER, scheme) },
          { name: 'x' },
        );
        const body = expectProblem(answer, 403);
        expect(body.requiredScopes).toEqual(['users:write']);
        if (scheme === 'bearer') {
          const [c] = challenges(answer);
          expect(param(c as never, 'error')).toBe('insufficient_scope');
          expect(param(c as never, 'scope')).toBe('users:write');
        } else {
          // RFC 6750's insufficient_scope belongs to Bearer; Basic and Apikey 403s carry no challenge.
          expect(answer.all('www-authenticate')).toEqual([]);
        }
      }
    });

    test(`DELETE /users/1 with the user's ${scheme} credentials → 403 and the item survives`, async () => {
      expectProblem(
        await call(mock.url, 'DELETE', '/users/1', {
          headers: { authorization: authorization(USER, scheme) },
        }),
        403,
      );
      expect((await get('/users/1')).status).toBe(200);
    });
  }
});

test.describe('order of checks: route → method → credentials → authorization → handler', () => {
  test('unknown path with bad credentials → 404; wrong method with bad credentials → 405', async () => {
    expect((await get('/nope', { authorization: WRONG.bearer })).status).toBe(404);
    expect(
      (await call(mock.url, 'DELETE', '/admin', { headers: { authorization: WRONG.bearer } })).status,
    ).toBe(405);
  });

  test('malformed credentials on the admin route → 400 (credentials come before authorization)', async () => {
    expect((await get('/admin', { authorization: MALFORMED.bearer })).status).toBe(400);
  });

  test('DELETE /users/<unknown id> without credentials → 401, with the user credentials → 403, as admin → 404', async () => {
    const path = '/users/gatecheck-no-such-id';
    expect((await call(mock.url, 'DELETE', path)).status).toBe(401);
    const user = await call(mock.url, 'DELETE', path, {
      headers: { authorization: authorization(USER, 'basic') },
    });
    expect(user.status).toBe(403);
    const admin = await call(mock.url, 'DELETE', path, {
      headers: { authorization: authorization(ADMIN, 'basic') },
    });
    expect(admin.status).toBe(404);
  });

  test('no answer leaks a stack trace or a credential', async () => {
    for (const scheme of SCHEMES) {
      for (const identity of [ADMIN, USER]) {
        const answer = await get('/admin', { authorization: authorization(identity, scheme) });
        expectNoLeak(answer.text);
        expectNoLeak(answer.lines.map(([n, v]) => `${n}: ${v}`).join('\n'));
      }
    }
  });
});
