/** What the defects' probes (tests/mutation/expectations/*.ts) share: tokens built by hand, small readers. */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { importJWK, type JWK, type JWTPayload, SignJWT } from 'jose';
import { type Answer, AUDIENCE, b64url, call, fixture, ISSUER, PROFILE } from '../../mock/mock-support.ts';

export {
  ADMIN,
  type Answer,
  authorization,
  b64url,
  call,
  mint,
  PUBLIC,
  USER,
  WRONG,
} from '../../mock/mock-support.ts';

const PRIVATE = JSON.parse(readFileSync(fixture('keys/private.jwks.json'), 'utf8')) as { keys: JWK[] };
export const RS256 = PRIVATE.keys.find((k) => k.alg === 'RS256') as JWK;
export const CAROL = PROFILE.identities.ratelimit as { bearer: string };
export const USER_CLAIMS = { sub: 'bob', roles: ['user'], scope: 'users:read' };

/** Claims of a valid user token (iss, aud, iat, exp), for tokens built by hand. */
export function claims(extra: Record<string, unknown> = {}): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return { iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 600, ...USER_CLAIMS, ...extra };
}

export async function signed(header: Record<string, unknown>, payload: JWTPayload): Promise<string> {
  const crit = Array.isArray(header.crit)
    ? Object.fromEntries((header.crit as string[]).map((n) => [n, true]))
    : undefined;
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'RS256', kid: RS256.kid as string, ...header })
    .sign(await importJWK(RS256, 'RS256'), crit ? { crit } : undefined);
}

export function hs256(header: Record<string, unknown>, payload: JWTPayload, secret: string): string {
  const input = `${b64url({ alg: 'HS256', typ: 'JWT', ...header })}.${b64url(payload)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

export const bearer = (token: string): { authorization: string } => ({ authorization: `Bearer ${token}` });
export const status = (answer: Answer): number => answer.status;
export const firstChallenge = (answer: Answer): string => answer.all('www-authenticate')[0] ?? '(none)';

export const LIMIT_3 = {
  rateLimit: { groups: { default: { limit: 3, windowSeconds: 60, banAfter: 100 } } },
} as const;

/** Sends the rate-limit identity's GET /protected `n` times; the statuses. */
export async function burst(url: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++)
    out.push(status(await call(url, 'GET', '/protected', { headers: bearer(CAROL.bearer) })));
  return out;
}
