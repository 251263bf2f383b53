/**
 * Tokens the suite mints from the profile's signing material (profile.jwt) with jose: fresh ones for
 * ordinary checks, and ones a conformant target must refuse — expired (RFC 7519 §4.1.4), not yet valid
 * (§4.1.5), wrong audience (§4.1.3) or issuer (RFC 8725 §3.8), unsecured `alg: none` (RFC 7519 §6,
 * RFC 8725 §2.1), HS256 keyed with the public key (RFC 8725 §2.1, §3.1), unknown `crit` (RFC 7515 §4.1.11).
 * Times stay outside the target's leeway by a wide margin, so no rule depends on clock skew.
 */
import { randomUUID } from 'node:crypto';
import {
  base64url,
  type CryptoKey,
  exportSPKI,
  importJWK,
  type JWK,
  type JWTHeaderParameters,
  type JWTPayload,
  SignJWT,
} from 'jose';
import { ProfileError } from '../profile/load.ts';
import type { JwtMaterial } from '../profile/types.ts';

/** RFC 7515 §4.1.11: an extension name no recipient understands. */
export const UNKNOWN_CRIT = 'urn:gatecheck:unknown-critical';

export interface MintOverrides {
  /** Claims replacing the defaults (undefined removes one). */
  readonly claims?: Readonly<Record<string, unknown>>;
  /** Extra protected-header parameters. */
  readonly header?: Readonly<Record<string, unknown>>;
  /** Lifetime in seconds from now (default 600). */
  readonly lifetime?: number;
  /** Seconds added to "now" for iat/exp (negative: in the past). */
  readonly shift?: number;
}

export class TokenMint {
  readonly leeway: number;
  private constructor(
    readonly material: JwtMaterial,
    private readonly key: CryptoKey | Uint8Array,
    private readonly kid: string | undefined,
  ) {
    this.leeway = material.leewaySeconds ?? 300;
  }

  static async create(material: JwtMaterial): Promise<TokenMint> {
    if (material.alg.startsWith('HS')) {
      if (!material.secret) throw new TypeError(`profile.jwt.secret is required for ${material.alg}`);
      return new TokenMint(material, new TextEncoder().encode(material.secret), undefined);
    }
    if (!material.privateJwk) throw new TypeError(`profile.jwt.privateJwk is required for ${material.alg}`);
    const jwk = material.privateJwk as JWK;
    const key = await importJWK(jwk, material.alg);
    return new TokenMint(material, key as CryptoKey, typeof jwk.kid === 'string' ? jwk.kid : undefined);
  }

  get asymmetric(): boolean {
    return !this.material.alg.startsWith('HS');
  }

  /** Claims of a valid token for an identity: its jwtClaims, plus iss/aud/iat/exp/jti. */
  claims(identityClaims: Readonly<Record<string, unknown>>, o: MintOverrides = {}): JWTPayload {
    const now = Math.floor(Date.now() / 1000) + (o.shift ?? 0);
    const base: Record<string, unknown> = {
      ...(this.material.issuer === undefined ? {} : { iss: this.material.issuer }),
      ...(this.material.audience === undefined ? {} : { aud: this.material.audience }),
      ...identityClaims,
      iat: now,
      exp: now + (o.lifetime ?? 600),
      jti: randomUUID(),
    };
    for (const [k, v] of Object.entries(o.claims ?? {})) {
      if (v === undefined) delete base[k];
      else base[k] = v;
    }
    return base as JWTPayload;
  }

  private header(extra: Readonly<Record<string, unknown>> = {}): JWTHeaderParameters {
    return {
      alg: this.material.alg,
      typ: 'JWT',
      ...(this.kid === undefined ? {} : { kid: this.kid }),
      ...extra,
    } as JWTHeaderParameters;
  }

  async sign(payload: JWTPayload, header: Readonly<Record<string, unknown>> = {}): Promise<string> {
    const h = this.header(header);
    const crit = Array.isArray(h.crit) ? Object.fromEntries(h.crit.map((name) => [name, true])) : undefined;
    return new SignJWT(payload).setProtectedHeader(h).sign(this.key, crit ? { crit } : undefined);
  }

  /** A token the target should accept. */
  fresh(identityClaims: Readonly<Record<string, unknown>>, o: MintOverrides = {}): Promise<string> {
    return this.sign(this.claims(identityClaims, o), o.header);
  }

  /** exp well before now − leeway (RFC 7519 §4.1.4). */
  expired(identityClaims: Readonly<Record<string, unknown>>): Promise<string> {
    return this.fresh(identityClaims, { shift: -(this.leeway + 3600), lifetime: 600 });
  }

  /** nbf well after now + leeway (RFC 7519 §4.1.5); iat now and exp after nbf, so only nbf is wrong. */
  notYetValid(identityClaims: Readonly<Record<string, unknown>>): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return this.fresh(identityClaims, {
      lifetime: this.leeway + 7200,
      claims: { nbf: now + this.leeway + 3600 },
    });
  }

  wrongAudience(identityClaims: Readonly<Record<string, unknown>>): Promise<string> {
    return this.fresh(identityClaims, { claims: { aud: 'https://audience.gatecheck.invalid' } });
  }

  wrongIssuer(identityClaims: Readonly<Record<string, unknown>>): Promise<string> {
    return this.fresh(identityClaims, { claims: { iss: 'https://issuer.gatecheck.invalid' } });
  }

  /** A crit header parameter naming an extension the target cannot understand (RFC 7515 §4.1.11). */
  unknownCrit(identityClaims: Readonly<Record<string, unknown>>): Promise<string> {
    return this.fresh(identityClaims, { header: { crit: [UNKNOWN_CRIT], [UNKNOWN_CRIT]: true } });
  }

  /** An Unsecured JWS (RFC 7519 §6): alg "none", empty signature, otherwise valid claims. */
  algNone(identityClaims: Readonly<Record<string, unknown>>): string {
    const header = { alg: 'none', typ: 'JWT' };
    const enc = (v: unknown) => base64url.encode(JSON.stringify(v));
    return `${enc(header)}.${enc(this.claims(identityClaims))}.`;
  }

  /**
   * Key confusion (RFC 8725 §2.1): HS256 keyed with the bytes of the target's public key (its PEM SPKI,
   * as the classic attack does), so a verifier that lets the token pick the algorithm accepts it.
   * Undefined when the profile has no public key or uses a shared secret.
   */
  async keyConfusion(identityClaims: Readonly<Record<string, unknown>>): Promise<string | undefined> {
    if (!this.asymmetric || !this.material.publicJwk) return undefined;
    const pub = await importJWK(this.material.publicJwk as JWK, this.material.alg, { extractable: true });
    const pem = await exportSPKI(pub as CryptoKey);
    const header = { alg: 'HS256', typ: 'JWT', ...(this.kid === undefined ? {} : { kid: this.kid }) };
    return new SignJWT(this.claims(identityClaims))
      .setProtectedHeader(header)
      .sign(new TextEncoder().encode(pem));
  }
}

/**
 * Imports the profile's keys once, so a JWK that does not fit its algorithm stops the run before any
 * request (as a ProfileError naming the field) instead of failing every JWT check.
 */
export async function checkJwtMaterial(material: JwtMaterial | undefined): Promise<void> {
  if (!material) return;
  try {
    // Importing is not enough: a public JWK imports fine and fails only when signing.
    await (await TokenMint.create(material)).fresh({ sub: 'gatecheck-material-check' });
  } catch (e) {
    throw new ProfileError(
      '/jwt/privateJwk',
      `cannot be used to sign ${material.alg} (${(e as Error).message})`,
    );
  }
  if (material.publicJwk && !material.alg.startsWith('HS')) {
    try {
      await importJWK(material.publicJwk as JWK, material.alg);
    } catch (e) {
      throw new ProfileError(
        '/jwt/publicJwk',
        `is not a ${material.alg} public key (${(e as Error).message})`,
      );
    }
  }
}
