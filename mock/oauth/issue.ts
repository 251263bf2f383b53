/**
 * Issues the mock's access tokens: JWTs (RFC 7519) signed with the first key of the mock's private JWK set,
 * carrying what its own Bearer verifier reads (iss, aud, sub, exp, `roles`, `scope` — mock/auth/jwt-claims.ts),
 * so a fetched token is accepted exactly like one the suite mints.
 */

import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { importJWK, type JWK, SignJWT } from 'jose';

export interface TokenClaims {
  readonly sub: string;
  readonly roles: readonly string[];
  readonly scopes: readonly string[];
  readonly clientId: string;
}

export type Issuer = (claims: TokenClaims, now: number) => Promise<{ token: string; expiresIn: number }>;

export interface IssuerOptions {
  readonly signingKeysPath: string;
  readonly issuer: string;
  readonly audience: string;
  readonly lifetimeSeconds: number;
}

export async function createIssuer(options: IssuerOptions): Promise<Issuer> {
  const set = JSON.parse(await readFile(options.signingKeysPath, 'utf8')) as { keys?: JWK[] };
  const jwk = set.keys?.[0];
  if (jwk?.alg === undefined) throw new TypeError(`${options.signingKeysPath}: expected a key with "alg"`);
  const { alg, kid } = jwk;
  const key = await importJWK(jwk, alg);
  const lifetime = options.lifetimeSeconds;
  return async (claims, now) => {
    // RFC 7519 §2: NumericDate is in seconds.
    const iat = Math.floor(now / 1000);
    const token = await new SignJWT({
      roles: [...claims.roles],
      scope: claims.scopes.join(' '),
      client_id: claims.clientId,
    })
      .setProtectedHeader({ alg, typ: 'JWT', ...(kid === undefined ? {} : { kid }) })
      .setSubject(claims.sub)
      .setIssuer(options.issuer)
      .setAudience(options.audience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + lifetime)
      .setJti(randomUUID())
      .sign(key);
    return { token, expiresIn: lifetime };
  };
}
