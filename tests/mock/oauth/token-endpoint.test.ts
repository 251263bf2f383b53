/**
 * The mock's token endpoint against RFC 6749: §4.4 client credentials and §4.3 resource owner password
 * grants, §2.3.1 client authentication (Basic or body, never both), §5.1 answers (`access_token`,
 * `token_type`, `expires_in`, `Cache-Control: no-store`, `Pragma: no-cache`), §5.2 errors (each code; 401
 * with a challenge for invalid_client), and its JWKS (RFC 7517 §5) verifying what it issues.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import { OAUTH_PROFILE } from '../../credentials/oauth-target.ts';
import { mockForTests } from '../../helpers/mock-for-tests.ts';
import { answerBeforeBody, rawStatus } from '../mock-support.ts';

const clients = Object.fromEntries(
  Object.values(
    (
      JSON.parse(readFileSync(OAUTH_PROFILE, 'utf8')) as {
        identities: Record<string, { token: { oauth2: { clientId: string; clientSecret: string } } }>;
      }
    ).identities,
  ).map(({ token }) => [token.oauth2.clientId, token.oauth2.clientSecret]),
) as Record<string, string>;
const ADMIN = 'gatecheck-admin';
const USER = 'gatecheck-user';

const mock = mockForTests({ oauth: { tokenLifetimeSeconds: 120 }, control: { enabled: true } });

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

async function token(body: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${mock.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
  return { res, json: (await res.json()) as Record<string, unknown> };
}

async function expectError(
  answer: { res: Response; json: Record<string, unknown> },
  status: number,
  code: string,
): Promise<void> {
  expect(answer.res.status).toBe(status);
  expect(answer.json.error).toBe(code);
  // §5.2: JSON with the error members — not problem+json; never cached.
  expect(answer.res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(answer.res.headers.get('cache-control')).toBe('no-store');
}

test('§4.4 client credentials, client authenticated with Basic → 200 Bearer token with expires_in, no-store', async () => {
  const { res, json } = await token('grant_type=client_credentials', {
    authorization: basic(ADMIN, clients[ADMIN] as string),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('pragma')).toBe('no-cache');
  expect(json.token_type).toBe('Bearer');
  expect(json.expires_in).toBe(120);
  expect(json.scope).toBe('users:read users:write');
  const admin = await fetch(`${mock.url}/admin`, {
    headers: { authorization: `Bearer ${json.access_token}` },
  });
  expect(admin.status).toBe(200);
});

test('§4.4 client credentials, client authenticated in the body → 200; the token verifies with the JWKS', async () => {
  const { res, json } = await token(
    `grant_type=client_credentials&client_id=${USER}&client_secret=${encodeURIComponent(clients[USER] as string)}`,
  );
  expect(res.status).toBe(200);
  const jwks = (await (await fetch(`${mock.url}/.well-known/jwks.json`)).json()) as JSONWebKeySet;
  const { payload } = await jwtVerify(json.access_token as string, createLocalJWKSet(jwks), {
    issuer: mock.config.auth.issuer,
    audience: mock.config.auth.audience,
  });
  expect(payload.sub).toBe('bob');
  expect((payload.exp as number) - (payload.iat as number)).toBe(120);
});

test('§4.3 password grant → a token for the resource owner; wrong password → 400 invalid_grant', async () => {
  const auth = { authorization: basic(ADMIN, clients[ADMIN] as string) };
  const ok = await token(
    `grant_type=password&username=bob&password=${encodeURIComponent('s3cret:päss')}`,
    auth,
  );
  expect(ok.res.status).toBe(200);
  const user = await fetch(`${mock.url}/admin`, {
    headers: { authorization: `Bearer ${ok.json.access_token}` },
  });
  expect(user.status).toBe(403); // bob is no admin: the token speaks for the user, not the client
  await expectError(
    await token('grant_type=password&username=bob&password=nope', auth),
    400,
    'invalid_grant',
  );
  await expectError(await token('grant_type=password&username=bob', auth), 400, 'invalid_request');
});

test('§5.2 invalid_client → 401 with a Basic challenge: wrong secret, unknown client, no client authentication', async () => {
  const headerSets: Record<string, string>[] = [
    { authorization: basic(ADMIN, 'gcs_not-the-secret-42') },
    { authorization: basic('nobody', 'gcs_not-the-secret-42') },
    {},
  ];
  for (const headers of headerSets) {
    const answer = await token('grant_type=client_credentials', headers);
    await expectError(answer, 401, 'invalid_client');
    expect(answer.res.headers.get('www-authenticate')).toMatch(/^Basic realm="gatecheck"/);
    expect(JSON.stringify(answer.json)).not.toContain('gcs_not-the-secret-42');
  }
});

test('§5.2 invalid_request, unsupported_grant_type, invalid_scope', async () => {
  const auth = { authorization: basic(USER, clients[USER] as string) };
  await expectError(await token('', auth), 400, 'invalid_request'); // no grant_type
  await expectError(
    await token('grant_type=client_credentials&grant_type=password', auth),
    400,
    'invalid_request',
  );
  await expectError(
    await token(`grant_type=client_credentials&client_secret=${clients[USER]}`, auth),
    400,
    'invalid_request',
  ); // §2.3.1: two authentication methods
  const json = await fetch(`${mock.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth },
    body: '{"grant_type":"client_credentials"}',
  });
  expect(json.status).toBe(400); // §3.2: form-encoded parameters only
  await expectError(await token('grant_type=authorization_code&code=x', auth), 400, 'unsupported_grant_type');
  await expectError(
    await token('grant_type=client_credentials&scope=users:write', auth),
    400,
    'invalid_scope',
  );
});

test('GET /oauth/token → 405 with Allow: POST; the journal records token requests with their outcome', async () => {
  const res = await fetch(`${mock.url}/oauth/token`);
  expect(res.status).toBe(405);
  expect(res.headers.get('allow')).toBe('POST');
  await token('grant_type=client_credentials', { authorization: basic(ADMIN, 'wrong') });
  const control = mock.control as { url: string; token: string };
  const journal = (await (
    await fetch(`${control.url}/journal?outcome=invalid_client`, {
      headers: { authorization: `Bearer ${control.token}` },
    })
  ).json()) as { entries: { path: string; status: number }[] };
  expect(journal.entries.some((e) => e.path === '/oauth/token' && e.status === 401)).toBe(true);
});

test('a declared form body just over the bound, sent after the 413 came → the 413 is not lost: the connection is drained and answers the next request (RFC 9112 §9.6)', async () => {
  const length = 100 * 1024 + 1;
  const { first, nextAnswered } = await answerBeforeBody(
    mock.url,
    `POST /oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\n\r\n`,
    length,
  );
  expect(rawStatus(first), first.slice(0, 300)).toBe(413);
  expect(first.toLowerCase()).not.toContain('connection: close');
  expect(nextAnswered).toBe(true);
});

test('a form body over the size bound → 413 problem+json, declared or streamed; the endpoint still answers', async () => {
  const big = `grant_type=client_credentials&pad=${'a'.repeat(101 * 1024)}`;
  const declared = await fetch(`${mock.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: big,
  });
  expect(declared.status).toBe(413);
  expect(declared.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  // Without a Content-Length (chunked), the bound is met while reading.
  const streamed = await fetch(`${mock.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new Blob([big]).stream(),
    duplex: 'half',
  } as RequestInit);
  expect(streamed.status).toBe(413);
  await expectError(await token('grant_type=client_credentials'), 401, 'invalid_client');
});
