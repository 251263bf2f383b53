/**
 * A Bearer verifier with one or more checks switched off, for the defects of the `bearer tokens` layer
 * (mock/defects/registry.ts). It is asked only about tokens the real verifier (mock/auth/bearer.ts) refused,
 * and says which of them the defective server would have let in: each relaxation undoes exactly one check
 * and every other check stays as strict as the real one (RFC 7519 §7.2, RFC 7515 §5.2, RFC 8725).
 */
import { createHmac, createPublicKey, timingSafeEqual } from 'node:crypto';
import {
  type CryptoKey,
  compactVerify,
  createLocalJWKSet,
  decodeProtectedHeader,
  exportSPKI,
  importJWK,
  type JSONWebKeySet,
  type JWK,
  type JWTPayload,
  type ProtectedHeaderParameters,
} from 'jose';
import { identityFromClaims } from '../auth/jwt-claims.ts';
import type { AuthSettings, Identity } from '../auth/types.ts';

/** Which checks are off. Each flag is one defect of the registry. */
export interface JwtRelaxations {
  /** alg-none: `"alg": "none"` (any case) skips the signature. */
  readonly algNone: boolean;
  /** jwt-skip-signature: the signature is never verified. */
  readonly signature: boolean;
  /** jwt-key-confusion: HS* verified with the public key's PEM text as the secret. */
  readonly keyConfusion: boolean;
  /** ecdsa-zero-signature: r = s = 0 verifies any message (CVE-2022-21449). */
  readonly ecdsaZero: boolean;
  /** jwt-kid-empty-secret: an HS* token whose kid names no key is checked against the empty secret. */
  readonly kidEmptySecret: boolean;
  /** jwt-embedded-key: the key offered by the header (jwk, jku, x5u) is trusted. */
  readonly embeddedKey: boolean;
  /** jwt-lenient-structure: first three segments, characters outside base64url skipped. */
  readonly structure: boolean;
  /** jwt-accept-expired */
  readonly exp: boolean;
  /** jwt-ignore-nbf */
  readonly nbf: boolean;
  /** jwt-ignore-aud */
  readonly aud: boolean;
  /** jwt-ignore-iss */
  readonly iss: boolean;
  /** jwt-iss-aud-optional: iss and aud are checked only when present. */
  readonly issAudOptional: boolean;
  /** jwt-ignore-crit */
  readonly crit: boolean;
}

/** Returns the identity the defective verifier would accept the token as, or undefined (still refused). */
export type LenientVerifier = (token: string, now: number) => Promise<Identity | undefined>;

const HMAC = /^HS(256|384|512)$/;
const ECDSA = /^ES(256|384|512)$/;
/** DER SEQUENCE { INTEGER 0, INTEGER 0 }: the zero signature in the form some libraries take. */
const DER_ZERO = Buffer.from([0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00]);
const NOT_BASE64URL = /[^A-Za-z0-9_-]/g;

export async function createLenientVerifier(
  settings: AuthSettings,
  jwks: JSONWebKeySet,
  relax: JwtRelaxations,
): Promise<LenientVerifier> {
  const keys = createLocalJWKSet(jwks);
  const algorithms = [...settings.algorithms];
  const tolerance = settings.clockToleranceSeconds;
  const knownKids = new Set(jwks.keys.map((k) => k.kid).filter((kid) => kid !== undefined));
  // The "secret" a confused verifier uses: the public key file's text, with and without its final newline.
  const pemSecrets: string[] = [];
  if (relax.keyConfusion) {
    for (const jwk of jwks.keys) {
      const alg = jwk.alg ?? (jwk.kty === 'EC' ? 'ES256' : 'RS256');
      const spki = await exportSPKI((await importJWK(jwk, alg, { extractable: true })) as CryptoKey);
      const file = createPublicKey({ key: jwk as JWK & { kty: string }, format: 'jwk' })
        .export({ type: 'spki', format: 'pem' })
        .toString();
      pemSecrets.push(spki, file);
    }
  }

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

  /** The payload once the (possibly relaxed) signature check passed. */
  const verified = async (
    token: string,
    parts: readonly string[],
    header: ProtectedHeaderParameters,
  ): Promise<JWTPayload | undefined> => {
    const alg = typeof header.alg === 'string' ? header.alg : '';
    const claims = (): JWTPayload | undefined => claimsOf(parts[1] as string);
    if (relax.signature) return claims();
    if (relax.algNone && alg.toLowerCase() === 'none') return claims();
    if (relax.keyConfusion && HMAC.test(alg) && macMatches(parts, alg, pemSecrets)) return claims();
    if (
      relax.kidEmptySecret &&
      HMAC.test(alg) &&
      'kid' in header &&
      !knownKids.has(header.kid as string) &&
      macMatches(parts, alg, [''])
    ) {
      return claims();
    }
    if (relax.ecdsaZero && ECDSA.test(alg) && isZeroSignature(parts[2] as string)) return claims();
    if (relax.embeddedKey) {
      if (header.jwk !== undefined) {
        try {
          await compactVerify(token, await importJWK(header.jwk as JWK, alg));
          return claims();
        } catch {
          return undefined;
        }
      }
      // The mock is offline: following jku / x5u is emulated as fetching the attacker's key, which verifies.
      if (header.jku !== undefined || header.x5u !== undefined) return claims();
    }
    try {
      // RFC 7515 §4.1.11: `crit` names the extensions the recipient must understand; pretending to understand
      // every one of them is the jwt-ignore-crit defect.
      const crit =
        relax.crit && Array.isArray(header.crit)
          ? Object.fromEntries(header.crit.map((name) => [String(name), true]))
          : undefined;
      await compactVerify(token, keys, { algorithms, ...(crit ? { crit } : {}) });
      return claims();
    } catch {
      return undefined;
    }
  };

  /** RFC 7519 §4.1.1, §4.1.3–5 with the relaxations; `exp` and `sub` stay required, as in the real verifier. */
  const claimsAccepted = (payload: JWTPayload, now: number): boolean => {
    const nowSeconds = Math.floor(now / 1000);
    const { iss, aud, exp, nbf } = payload;
    if (!relax.iss && (iss === undefined ? !relax.issAudOptional : iss !== settings.issuer)) return false;
    if (!relax.aud) {
      const audiences = Array.isArray(aud) ? aud : aud === undefined ? [] : [aud];
      if (aud === undefined ? !relax.issAudOptional : !audiences.includes(settings.audience)) return false;
    }
    if (typeof exp !== 'number') return false;
    if (!relax.exp && exp <= nowSeconds - tolerance) return false;
    if (nbf !== undefined && (typeof nbf !== 'number' || (!relax.nbf && nbf > nowSeconds + tolerance)))
      return false;
    return true;
  };

  return async (received, now) => {
    const token = relax.structure ? leniently(received) : received;
    if (token === undefined) return undefined;
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    let header: ProtectedHeaderParameters;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      return undefined;
    }
    const payload = await verified(token, parts, header);
    if (payload === undefined || !claimsAccepted(payload, now)) return undefined;
    const identity = identityFromClaims(payload);
    return 'ok' in identity ? undefined : identity;
  };
}

/** `const [h, p, s] = token.split('.')` and a decoder that skips what is not base64url, then re-encoded. */
function leniently(token: string): string | undefined {
  const [h, p, s] = token.split('.');
  if (h === undefined || p === undefined || s === undefined) return undefined;
  const canonical = (segment: string): string =>
    Buffer.from(segment.replace(NOT_BASE64URL, ''), 'base64url').toString('base64url');
  return `${canonical(h)}.${canonical(p)}.${s}`;
}

function macMatches(parts: readonly string[], alg: string, secrets: readonly string[]): boolean {
  const signature = Buffer.from(parts[2] as string, 'base64url');
  const input = `${parts[0]}.${parts[1]}`;
  const hash = `sha${alg.slice(2)}`;
  return secrets.some((secret) => {
    const mac = createHmac(hash, secret).update(input).digest();
    return mac.length === signature.length && timingSafeEqual(mac, signature);
  });
}

function isZeroSignature(segment: string): boolean {
  const signature = Buffer.from(segment, 'base64url');
  if (signature.length === 0) return false;
  return signature.every((byte) => byte === 0) || signature.equals(DER_ZERO);
}
