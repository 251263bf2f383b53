/**
 * The JWT rules run against a stand-in (issue #43): its `/openapi.json` states `x-gatecheck-jwt` (issuer,
 * audience, algorithms, leeway, public key, JWKS) on each scheme whose tokens it verifies, `--print-env` gives
 * the test issuer's private key under init's variable (GATECHECK_JWT_PRIVATE_JWK), init writes the profile's
 * `jwt` from it — and a token the suite mints from init's jwtClaims (`sub: gatecheck-user`) opens what that
 * identity may read, while one from another issuer, or past its `exp`, does not (RFC 7519 §4.1.1, §4.1.4).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { importJWK, type JWK, SignJWT } from 'jose';
import { runInit } from '../../../cli/init/command.ts';
import { type RunningMock, startMock } from '../../../mock/server.ts';
import { writeStandInDocument } from './document.ts';

type Json = Record<string, unknown>;

let mock: RunningMock;
test.beforeAll(async () => {
  mock = await startMock({ openapi: await writeStandInDocument() });
});
test.afterAll(() => mock?.close());

test('/openapi.json states x-gatecheck-jwt on the JWT scheme only, and init writes the profile’s jwt from it', async () => {
  const served = (await (await fetch(`${mock.url}/openapi.json`)).json()) as {
    components: { securitySchemes: Record<string, Json> };
  };
  const schemes = served.components.securitySchemes;
  const jwt = schemes.oauth?.['x-gatecheck-jwt'] as Json;
  expect(jwt).toMatchObject({ algorithms: expect.any(Array), jwksUri: `${mock.url}/.well-known/jwks.json` });
  expect(typeof jwt.issuer).toBe('string');
  expect((jwt.publicJwk as Json).d).toBeUndefined();
  expect(schemes.basic?.['x-gatecheck-jwt']).toBeUndefined();
  expect(schemes.headerKey?.['x-gatecheck-jwt']).toBeUndefined();

  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-stand-in-jwt-'));
  try {
    const out = path.join(dir, 'p.json');
    const quiet = { out: () => {}, err: () => {} };
    await runInit(
      { source: `${mock.url}/openapi.json`, out, force: false, probe: undefined, writes: false },
      quiet,
    );
    const profile = JSON.parse(await readFile(out, 'utf8')) as { jwt?: Json };
    expect(profile.jwt).toMatchObject({
      alg: (jwt.algorithms as string[])[0],
      issuer: jwt.issuer,
      audience: jwt.audience,
      privateJwk: { env: 'GATECHECK_JWT_PRIVATE_JWK' },
      publicJwk: jwt.publicJwk,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a token minted with the printed key and init’s claims opens the user’s read; another issuer or an expired one is 401', async () => {
  const env = new Map((await mock.standIn?.environment(Date.now()))?.map((v) => [v.name, v.value]));
  const printed = env.get('GATECHECK_JWT_PRIVATE_JWK');
  expect(printed).toBeDefined();
  const jwk = JSON.parse(printed as string) as JWK;
  const served = (await (await fetch(`${mock.url}/openapi.json`)).json()) as {
    components: { securitySchemes: { oauth: { 'x-gatecheck-jwt': Json } } };
  };
  const { issuer, audience } = served.components.securitySchemes.oauth['x-gatecheck-jwt'] as {
    issuer: string;
    audience: string;
  };
  const key = await importJWK(jwk, jwk.alg);
  const now = Math.floor(Date.now() / 1000);
  const mint = (claims: Json, iss = issuer, exp = now + 300) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: jwk.alg as string, kid: jwk.kid as string })
      .setIssuer(iss)
      .setAudience(audience)
      .setIssuedAt(now - 600)
      .setExpirationTime(exp)
      .sign(key);
  const read = async (token: string) =>
    (await fetch(`${mock.url}/v2/pets`, { headers: { authorization: `Bearer ${token}` } })).status;
  const claims = { sub: 'gatecheck-user', roles: [], scope: 'pets:read' };
  expect(await read(await mint(claims))).toBe(200);
  // A requirement's names are roles on non-oauth2 schemes (OpenAPI 3.1 §4.8.30): a token's roles are grants too.
  expect(await read(await mint({ ...claims, roles: ['pets:read'], scope: '' }))).toBe(200);
  expect(await read(await mint({ ...claims, scope: '' }))).toBe(403);
  expect(await read(await mint({ ...claims, sub: 'gatecheck-someone-else' }))).toBe(401);
  expect(await read(await mint(claims, 'https://another-issuer.example/'))).toBe(401);
  expect(await read(await mint(claims, issuer, now - 3600))).toBe(401);
});
