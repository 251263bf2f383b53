/**
 * The Bearer verifier seam: a verifier as strict as the real one (mock/auth/bearer.ts) except where a
 * defect's `jwt` hook (mock/defects/define.ts) adds a way to pass. It is asked only about tokens the real
 * verifier refused, and says which of them the defective server would have let in (RFC 7519 §7.2,
 * RFC 7515 §5.2, RFC 8725).
 */
import {
  compactVerify,
  createLocalJWKSet,
  decodeProtectedHeader,
  type JSONWebKeySet,
  type JWTPayload,
} from 'jose';
import { identityFromClaims } from '../../auth/jwt-claims.ts';
import type { AuthSettings, Identity } from '../../auth/types.ts';
import type { ClaimCheck, JwtHook, TokenView } from '../unit/define.ts';

/** Returns the identity the defective verifier would accept the token as, or undefined (still refused). */
export type LenientVerifier = (token: string, now: number) => Promise<Identity | undefined>;

type Check = (payload: JWTPayload, now: number) => boolean;

export async function createLenientVerifier(
  settings: AuthSettings,
  jwks: JSONWebKeySet,
  hooks: readonly JwtHook[],
): Promise<LenientVerifier> {
  const keys = createLocalJWKSet(jwks);
  const algorithms = [...settings.algorithms];
  const tolerance = settings.clockToleranceSeconds;
  const rewrites = hooks.flatMap((h) => (h.token ? [h.token] : []));
  const signatures = hooks.flatMap((h) => (h.signature ? [h.signature] : []));

  /** The real claim checks, RFC 7519 §4.1.1 (iss), §4.1.3 (aud), §4.1.4 (exp), §4.1.5 (nbf). */
  const strict: Record<ClaimCheck, Check> = {
    iss: ({ iss }) => iss !== undefined && iss === settings.issuer,
    aud: ({ aud }) => (Array.isArray(aud) ? aud : aud === undefined ? [] : [aud]).includes(settings.audience),
    exp: ({ exp }, now) => typeof exp === 'number' && exp > Math.floor(now / 1000) - tolerance,
    nbf: ({ nbf }, now) =>
      nbf === undefined || (typeof nbf === 'number' && nbf <= Math.floor(now / 1000) + tolerance),
  };
  const checks = (Object.keys(strict) as ClaimCheck[]).map((name) => {
    const alternatives = [strict[name], ...hooks.flatMap((h) => h.claims?.[name] ?? [])];
    return (payload: JWTPayload, now: number) => alternatives.some((check) => check(payload, now));
  });

  /** The claims segment as an object, or undefined (RFC 7519 §7.2 step 10: it must be a JSON object). */
  const claimsOf = (segment: string): JWTPayload | undefined => {
    try {
      const value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as unknown;
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as JWTPayload)
        : undefined;
    } catch {
      return undefined;
    }
  };

  const signatureAccepted = async (view: TokenView): Promise<boolean> => {
    for (const accepts of signatures) if (await accepts(view)) return true;
    try {
      await compactVerify(view.token, keys, { algorithms });
      return true;
    } catch {
      return false;
    }
  };

  return async (received, now) => {
    let token: string | undefined = received;
    for (const rewrite of rewrites) token = token === undefined ? undefined : rewrite(token);
    if (token === undefined) return undefined;
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    let header: TokenView['header'];
    try {
      header = decodeProtectedHeader(token);
    } catch {
      return undefined;
    }
    const alg = typeof header.alg === 'string' ? header.alg : '';
    if (!(await signatureAccepted({ token, parts, header, alg }))) return undefined;
    const payload = claimsOf(parts[1] as string);
    // exp stays required whatever a hook accepts, as in the real verifier (its type is the exp check's, which a
    // hook may loosen); sub is identityFromClaims' check.
    if (payload === undefined || payload.exp === undefined || payload.exp === null) return undefined;
    // RFC 7519 §4.1.6: iat, when present, is a NumericDate (a JSON number), as jose's claim check has it; no defect
    // hook loosens it, so a defect of another seam does not also accept a mistyped iat (jwt.claims.wrong-type).
    if (payload.iat !== undefined && typeof payload.iat !== 'number') return undefined;
    if (!checks.every((check) => check(payload, now))) return undefined;
    const identity = identityFromClaims(payload);
    return 'ok' in identity ? undefined : identity;
  };
}
