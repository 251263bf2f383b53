/**
 * `createMock({ openapi })` / `--openapi` (issue #43): one route per path template and method, 405 with Allow
 * for another method on a known path, 404 elsewhere, problem+json; the document's security enforced with
 * credentials the mock issues — OR of AND-sets, `security: []`, an operation's own requirement over the
 * document's, keys where the document puts them, 401 with a challenge per accepted scheme, 403
 * insufficient_scope for a valid token without the scope.
 */
import { expect, test } from '@playwright/test';
import { type RunningMock, startMock } from '../../../mock/server.ts';
import type { StandInIdentity } from '../../../mock/standin/identities.ts';
import { writeStandInDocument } from './document.ts';

let mock: RunningMock;
let env: Map<string, string>;
let ids: Map<string, StandInIdentity>;

test.beforeAll(async () => {
  mock = await startMock({ openapi: await writeStandInDocument() });
  const standIn = mock.standIn;
  if (standIn === undefined) throw new Error('no stand-in');
  env = new Map((await standIn.environment(Date.now())).map((v) => [v.name, v.value]));
  ids = new Map(standIn.identities.map((id) => [id.name, id]));
});
test.afterAll(() => mock?.close());

const at = (path: string) => `${mock.url}/v2${path}`;
const bearer = (identity: string) =>
  `Bearer ${env.get(`GATECHECK_${identity.toUpperCase().replace(/-/g, '_')}_BEARER`)}`;
const basic = (id: StandInIdentity) =>
  `Basic ${Buffer.from(`${id.username}:${id.password}`).toString('base64')}`;
const identity = (name: string) => ids.get(name) as StandInIdentity;

test('routes: the document’s templates under its server path; 404 elsewhere, 405 with Allow, problem+json', async () => {
  expect((await fetch(at('/health'))).status).toBe(200);
  const missing = await fetch(at('/nothing-here'));
  expect(missing.status).toBe(404);
  expect(missing.headers.get('content-type')).toBe('application/problem+json');
  const outside = await fetch(`${mock.url}/health`);
  expect(outside.status).toBe(404);
  const put = await fetch(at('/pets'), { method: 'PUT', headers: { authorization: bearer('admin') } });
  expect(put.status).toBe(405);
  expect(put.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
  expect(((await put.json()) as { status: number }).status).toBe(405);
});

test('security: [] is public; the document’s requirement applies where an operation states none', async () => {
  expect((await fetch(at('/health'))).status).toBe(200);
  const none = await fetch(at('/pets'));
  expect(none.status).toBe(401);
  expect(none.headers.get('www-authenticate')).toBe('Bearer realm="gatecheck"');
  expect((await fetch(at('/pets'), { headers: { authorization: bearer('user') } })).status).toBe(200);
});

test('a forged token is 401 invalid_token; a lower-case scheme passes (RFC 9110 §11.1)', async () => {
  const token = env.get('GATECHECK_ADMIN_BEARER') as string;
  const [h, p, s] = token.split('.');
  const forged = `${h}.${p}.${(s as string).slice(0, -4)}AAAA`;
  const refused = await fetch(at('/pets'), { headers: { authorization: `Bearer ${forged}` } });
  expect(refused.status).toBe(401);
  expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
  expect((await fetch(at('/pets'), { headers: { authorization: `bearer ${token}` } })).status).toBe(200);
});

test('a valid token without the operation’s scope: 403 insufficient_scope; the reader’s write is refused', async () => {
  const write = await fetch(at('/pets'), {
    method: 'POST',
    headers: { authorization: bearer('user'), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bo' }),
  });
  expect(write.status).toBe(403);
  expect(write.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  expect(write.headers.get('www-authenticate')).toContain('scope="pets:write"');
  const nobody = await fetch(at('/pets'), { headers: { authorization: bearer('nobody') } });
  expect(nobody.status).toBe(403);
});

test('an OR of AND-sets: Basic alone is not enough, Basic with the header key is; or a token with the scope', async () => {
  const none = await fetch(at('/reports'));
  expect(none.status).toBe(401);
  expect(
    none.headers
      .get('www-authenticate')
      ?.split(', ')
      .filter((c) => /^\w+ realm=/.test(c)),
  ).toEqual(['Basic realm="gatecheck"', 'Apikey realm="gatecheck"', 'Bearer realm="gatecheck"']);
  const user = identity('user');
  expect((await fetch(at('/reports'), { headers: { authorization: basic(user) } })).status).toBe(401);
  const both = await fetch(at('/reports'), {
    headers: { authorization: basic(user), 'x-pets-key': user.apikey },
  });
  expect(both.status).toBe(200);
  // Two schemes proving two identities prove neither.
  const mixed = await fetch(at('/reports'), {
    headers: { authorization: basic(user), 'x-pets-key': identity('admin').apikey },
  });
  expect(mixed.status).toBe(401);
  expect((await fetch(at('/reports'), { headers: { authorization: bearer('admin') } })).status).toBe(200);
  expect((await fetch(at('/reports'), { headers: { authorization: bearer('user') } })).status).toBe(403);
});

test('keys where the document puts them: a query parameter, a cookie, Authorization after its own word', async () => {
  const key = identity('user').apikey;
  expect((await fetch(at('/keys/query'))).status).toBe(401);
  expect((await fetch(at(`/keys/query?api_key=${key}`))).status).toBe(200);
  expect((await fetch(at('/keys/query?api_key=gck_wrong'))).status).toBe(401);
  expect((await fetch(at('/keys/cookie'), { headers: { cookie: `a=b; pets_session=${key}` } })).status).toBe(
    200,
  );
  expect((await fetch(at('/keys/cookie'), { headers: { cookie: 'pets_session=nope' } })).status).toBe(401);
  const word = await fetch(at('/keys/word'));
  expect(word.headers.get('www-authenticate')).toBe('Token realm="gatecheck"');
  expect((await fetch(at('/keys/word'), { headers: { authorization: `token ${key}` } })).status).toBe(200);
  expect((await fetch(at('/keys/word'), { headers: { authorization: `Apikey ${key}` } })).status).toBe(401);
});

test('the token endpoint hands an identity’s client a token with the scopes it holds (RFC 6749 §4.4)', async () => {
  const admin = identity('admin');
  const answer = await fetch(`${mock.url}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${admin.clientId}:${admin.clientSecret}`).toString('base64')}`,
    },
    body: 'grant_type=client_credentials&scope=pets%3Aread',
  });
  expect(answer.status).toBe(200);
  const { access_token: token, scope } = (await answer.json()) as { access_token: string; scope: string };
  expect(scope).toBe('pets:read');
  expect((await fetch(at('/pets'), { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  // Only pets:read asked for: the write is refused.
  const write = await fetch(at('/pets/1'), {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(write.status).toBe(403);
});

test('an operation the document marks as an administrator’s (init’s adminScore) opens to the admin only', async () => {
  expect((await fetch(at('/admin/stats'), { headers: { authorization: bearer('admin') } })).status).toBe(200);
  const user = await fetch(at('/admin/stats'), { headers: { authorization: bearer('user') } });
  expect(user.status).toBe(403);
  expect(((await user.json()) as { requiredRoles: string[] }).requiredRoles).toEqual(['admin']);
  const key = await fetch(at('/admin/stats'), { headers: { authorization: basic(identity('user')) } });
  expect(key.status).toBe(401);
});
