/**
 * Which declared identity a Bearer JWT stands for when the suite minted it from the profile's signing material
 * (profile.jwt) rather than reading it from the profile: a target keys its per-identity counter by the identity
 * it verified, so such a token counts where the identity's own token counts (specs/run/buckets.ts).
 *
 * Only a token the target would verify is recognised: compact JWS (RFC 7515 §7.1) in the profile's algorithm,
 * its signature valid under the profile's key (RFC 7515 §5.2), `iss` and `aud` as the profile declares them
 * (RFC 7519 §4.1.1, §4.1.3), not expired nor not yet valid (§4.1.4, §4.1.5, within the profile's leeway), and a
 * `sub` (§4.1.2) that a declared identity's `jwtClaims.sub` names. Forged, unsigned or expired tokens count
 * wherever the target puts unverified clients, as before.
 */
import { constants, createHmac, createPublicKey, type KeyObject, timingSafeEqual, verify } from 'node:crypto';
import type { JwtMaterial, Profile } from '../profile/types.ts';

/** Tokens already looked at: fuzz plans send the same minted tokens again and again. */
const MEMO_LIMIT = 4096;
const DEFAULT_LEEWAY_SECONDS = 300;

type Verifier = (alg: string, signingInput: Buffer, signature: Buffer) => boolean;

/** A recogniser for `profile`'s minted tokens (token68 → identity name or ''), or undefined when it mints none. */
export function mintedIdentity(profile: Profile): ((token: string) => string) | undefined {
  const material = profile.jwt;
  if (material === undefined) return undefined;
  const bySub = new Map<string, string>();
  for (const [name, creds] of Object.entries(profile.identities)) {
    const sub = creds?.jwtClaims?.sub;
    if (typeof sub === 'string') bySub.set(sub, name);
  }
  const verifier = verifierFor(material);
  if (bySub.size === 0 || verifier === undefined) return undefined;
  const memo = new Map<string, string>();
  return (token) => {
    const known = memo.get(token);
    if (known !== undefined) return known;
    const name = recognise(token, material, bySub, verifier);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(token, name);
    return name;
  };
}

function recognise(
  token: string,
  material: JwtMaterial,
  bySub: ReadonlyMap<string, string>,
  verifier: Verifier,
): string {
  const parts = token.split('.');
  if (parts.length !== 3) return '';
  const [h = '', p = '', s = ''] = parts;
  const header = decodeJson(h);
  const payload = decodeJson(p);
  if (header === undefined || payload === undefined || header.alg !== material.alg) return '';
  const name = typeof payload.sub === 'string' ? bySub.get(payload.sub) : undefined;
  if (name === undefined || !claimsAccepted(payload, material)) return '';
  const ok = verifier(material.alg, Buffer.from(`${h}.${p}`, 'ascii'), Buffer.from(s, 'base64url'));
  return ok ? name : '';
}

function claimsAccepted(payload: Record<string, unknown>, material: JwtMaterial): boolean {
  if (material.issuer !== undefined && payload.iss !== material.issuer) return false;
  if (material.audience !== undefined) {
    const aud = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (!aud.includes(material.audience)) return false;
  }
  const now = Date.now() / 1000;
  const leeway = material.leewaySeconds ?? DEFAULT_LEEWAY_SECONDS;
  if (typeof payload.exp === 'number' && payload.exp + leeway <= now) return false;
  if (typeof payload.nbf === 'number' && payload.nbf - leeway > now) return false;
  return true;
}

function decodeJson(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Signature checks of RFC 7518 §3 (HS, RS, PS, ES) and RFC 8037 (EdDSA) under the profile's key. */
function verifierFor(material: JwtMaterial): Verifier | undefined {
  if (material.alg.startsWith('HS')) {
    if (material.secret === undefined) return undefined;
    const secret = Buffer.from(material.secret, 'utf8');
    return (alg, input, signature) => {
      const mac = createHmac(`sha${alg.slice(2)}`, secret)
        .update(input)
        .digest();
      return mac.length === signature.length && timingSafeEqual(mac, signature);
    };
  }
  const jwk = material.publicJwk ?? material.privateJwk;
  if (jwk === undefined) return undefined;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: jwk as never, format: 'jwk' });
  } catch {
    return undefined;
  }
  return (alg, input, signature) => {
    const hash = `sha${alg.slice(2)}`;
    try {
      if (alg === 'EdDSA') return verify(null, input, key, signature);
      if (alg.startsWith('RS')) return verify(hash, input, key, signature);
      if (alg.startsWith('PS'))
        return verify(
          hash,
          input,
          { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(alg.slice(2)) / 8 },
          signature,
        );
      if (alg.startsWith('ES')) return verify(hash, input, { key, dsaEncoding: 'ieee-p1363' }, signature);
    } catch {
      return false;
    }
    return false;
  };
}
