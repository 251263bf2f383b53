/**
 * Everything the JWT mutation arbitraries start from: a valid token of the profile's ordinary user (minted
 * from profile.jwt when it has signing material, else the profile's own bearer token), its decoded parts,
 * a signer with the target's key when there is one, the target's public key for key confusion, claims that
 * make the user an admin, and an attacker's own key pairs. Built once per worker.
 */
import {
  createPrivateKey,
  createPublicKey,
  createSecretKey,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Profile } from '../../profile/types.ts';
import { type DecodedJws, decodeJws, encodeJson } from './compact.ts';
import { signJws } from './sign.ts';

export interface AttackerKey {
  readonly alg: 'RS256' | 'ES256';
  readonly privateKey: KeyObject;
  /** Public JWK with `kid`, as an attacker would embed or host it. */
  readonly jwk: Readonly<JsonWebKey & { kid: string }>;
}

export interface JwtKit extends DecodedJws {
  /** The valid token every mutation starts from. */
  readonly token: string;
  /** True when the suite minted it (fresh iat/exp); false when it is the profile's bearer token. */
  readonly minted: boolean;
  /** Signs header + claims with the target's own key; absent without signing material in the profile. */
  readonly sign?: (
    header: Readonly<Record<string, unknown>>,
    payload: Readonly<Record<string, unknown>>,
  ) => string;
  /** The signature segment over any signing input, with the target's key and alg (for non-JSON payloads). */
  readonly signInput?: (signingInput: string) => string;
  /** The target's public key, for key confusion (RFC 8725 §2.1). */
  readonly publicKey?: KeyObject;
  /** Claims merged into the user's to make an admin of them (the profile's admin jwtClaims without sub). */
  readonly escalation: Readonly<Record<string, unknown>>;
  /** The admin's `sub`, for impersonation. */
  readonly adminSub: string;
  readonly issuer?: string;
  readonly audience?: string;
  readonly leewaySeconds: number;
  /**
   * Seconds since the epoch, now — read when a mutation is made, not when the kit was: a paced plan can run
   * for minutes, and a token whose `nbf` lay a minute beyond the leeway when the plan began is valid by then
   * (a verdict from the clock, not from the target).
   */
  readonly now: number;
  readonly attackers: readonly [AttackerKey, AttackerKey];
  /** Values to redact in reports: the base token and its signature. */
  readonly secrets: readonly string[];
}

export interface KitUnavailable {
  readonly unavailable: string;
}

/** A guess at claims that would make anyone an admin, when the profile does not say (any change must be refused). */
const GENERIC_ESCALATION = { roles: ['admin'], role: 'admin', admin: true, scope: 'admin' };

/**
 * The attacker's key pairs (attacker-keys.json): data, so no worker pays an RSA key generation. Also the key of
 * the checks' token signed by a stranger (specs/kit/stimuli.ts).
 */
const ATTACKER_KEYS = new URL('./attacker-keys.json', import.meta.url);
let attackerKeys: readonly [AttackerKey, AttackerKey] | undefined;

export function attackers(): readonly [AttackerKey, AttackerKey] {
  if (attackerKeys) return attackerKeys;
  const { keys } = JSON.parse(readFileSync(ATTACKER_KEYS, 'utf8')) as {
    keys: (JsonWebKey & { kid: string; alg: string })[];
  };
  const load = (alg: 'RS256' | 'ES256'): AttackerKey => {
    const jwk = keys.find((k) => k.alg === alg);
    if (!jwk) throw new TypeError(`${ATTACKER_KEYS.pathname} has no ${alg} key`);
    const privateKey = createPrivateKey({ key: jwk, format: 'jwk' });
    return {
      alg,
      privateKey,
      jwk: { ...createPublicKey(privateKey).export({ format: 'jwk' }), kid: jwk.kid },
    };
  };
  attackerKeys = [load('RS256'), load('ES256')];
  return attackerKeys;
}

function signingKey(profile: Profile): KeyObject | undefined {
  const jwt = profile.jwt;
  if (!jwt) return undefined;
  if (jwt.alg.startsWith('HS'))
    return jwt.secret ? createSecretKey(Buffer.from(jwt.secret, 'utf8')) : undefined;
  return jwt.privateJwk ? createPrivateKey({ key: jwt.privateJwk as JsonWebKey, format: 'jwk' }) : undefined;
}

export function createJwtKit(profile: Profile, clock: () => number = Date.now): JwtKit | KitUnavailable {
  const user = profile.identities.user;
  const admin = profile.identities.admin;
  const jwt = profile.jwt;
  const now = Math.floor(clock() / 1000);
  const key = signingKey(profile);
  const alg = jwt?.alg;

  let token: string | undefined;
  let minted = false;
  let sign: JwtKit['sign'];
  let signInput: JwtKit['signInput'];
  if (key && alg && user?.jwtClaims) {
    const kid = jwt?.privateJwk?.kid;
    signInput = (input) => signJws(alg, key, input);
    sign = (header, payload) => {
      const input = `${encodeJson(header)}.${encodeJson(payload)}`;
      return `${input}.${signJws(String(header.alg ?? alg), key, input)}`;
    };
    const header = { alg, typ: 'JWT', ...(typeof kid === 'string' ? { kid } : {}) };
    const claims = {
      ...(jwt?.issuer === undefined ? {} : { iss: jwt.issuer }),
      ...(jwt?.audience === undefined ? {} : { aud: jwt.audience }),
      ...user.jwtClaims,
      iat: now,
      exp: now + 3600,
    };
    token = sign(header, claims);
    minted = true;
  } else if (user?.bearer) {
    token = user.bearer;
  }
  if (token === undefined) {
    return {
      unavailable:
        'profile lacks identities.user.bearer, and jwt signing material with identities.user.jwtClaims',
    };
  }
  const decoded = decodeJws(token);
  if (!decoded)
    return {
      unavailable:
        "identities.user.bearer is not a JWS with JSON header and claims (an opaque token can't be mutated)",
    };

  let publicKey: KeyObject | undefined;
  if (jwt?.publicJwk) publicKey = createPublicKey({ key: jwt.publicJwk as JsonWebKey, format: 'jwk' });

  const { sub: adminSub, ...adminClaims } = admin?.jwtClaims ?? {};
  return {
    ...decoded,
    token,
    minted,
    ...(sign ? { sign } : {}),
    ...(signInput ? { signInput } : {}),
    ...(publicKey ? { publicKey } : {}),
    escalation: Object.keys(adminClaims).length > 0 ? adminClaims : GENERIC_ESCALATION,
    adminSub: typeof adminSub === 'string' ? adminSub : 'admin',
    ...(jwt?.issuer === undefined ? {} : { issuer: jwt.issuer }),
    ...(jwt?.audience === undefined ? {} : { audience: jwt.audience }),
    leewaySeconds: jwt?.leewaySeconds ?? 300,
    get now() {
      return Math.floor(clock() / 1000);
    },
    attackers: attackers(),
    secrets: [token, decoded.segments[2]],
  };
}

export function isKitUnavailable(kit: JwtKit | KitUnavailable): kit is KitUnavailable {
  return 'unavailable' in kit;
}
