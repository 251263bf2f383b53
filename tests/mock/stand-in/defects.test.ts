/**
 * Defects that replace the authenticator (mock/defects/seams/authenticator.ts) reach a stand-in's check
 * (issue #43): the Bearer-token defects' lenient verifier takes what the conformant stand-in refuses — an
 * unsecured JWT (`alg-none`: RFC 8725 §3.1 / RFC 7518 §3.6; rule jwt.alg.none), an expired one
 * (`jwt-accept-expired`: RFC 7519 §4.1.4) — and the stand-in's own identities still decide who it is.
 */
import { expect, test } from '@playwright/test';
import { importJWK, type JWK, SignJWT } from 'jose';
import { type RunningMock, startMock } from '../../../mock/server.ts';
import { writeStandInDocument } from './document.ts';

type Json = Record<string, unknown>;

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

async function tokens(mock: RunningMock) {
  const served = (await (await fetch(`${mock.url}/openapi.json`)).json()) as {
    components: { securitySchemes: { oauth: { 'x-gatecheck-jwt': { issuer: string; audience: string } } } };
  };
  const { issuer, audience } = served.components.securitySchemes.oauth['x-gatecheck-jwt'];
  const env = new Map((await mock.standIn?.environment(Date.now()))?.map((v) => [v.name, v.value]));
  const jwk = JSON.parse(env.get('GATECHECK_JWT_PRIVATE_JWK') as string) as JWK;
  const now = Math.floor(Date.now() / 1000);
  const claims: Json = {
    sub: 'user',
    scope: 'pets:read',
    iss: issuer,
    aud: audience,
    iat: now,
    exp: now + 300,
  };
  const expired = await new SignJWT({ ...claims, iat: now - 7200, exp: now - 3600 })
    .setProtectedHeader({ alg: jwk.alg as string, kid: jwk.kid as string })
    .sign(await importJWK(jwk, jwk.alg));
  const none = (c: Json) => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(c)}.`;
  return { unsecured: none(claims), stranger: none({ ...claims, sub: 'stranger' }), expired };
}

async function statusOf(mock: RunningMock, token: string): Promise<number> {
  return (await fetch(`${mock.url}/v2/pets`, { headers: { authorization: `Bearer ${token}` } })).status;
}

test('alg-none and jwt-accept-expired on a stand-in let through what the conformant stand-in refuses', async () => {
  const openapi = await writeStandInDocument();
  const conformant = await startMock({ openapi });
  const defective = await startMock({ openapi, defects: ['alg-none', 'jwt-accept-expired'] });
  try {
    const { unsecured, stranger, expired } = await tokens(conformant);
    expect(await statusOf(conformant, unsecured)).toBe(401);
    expect(await statusOf(conformant, expired)).toBe(401);
    expect(await statusOf(defective, unsecured)).toBe(200);
    expect(await statusOf(defective, expired)).toBe(200);
    // The defect relaxes the token's check, not who it names: an identity the stand-in did not issue is refused.
    expect(await statusOf(defective, stranger)).toBe(401);
  } finally {
    await conformant.close();
    await defective.close();
  }
});
