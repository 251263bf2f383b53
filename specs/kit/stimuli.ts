/**
 * Credentials a conformant target must refuse, each well-formed so that only its validity is wrong
 * (docs/design.md "Order of checks": each status is tested with every other condition satisfied).
 */
import { randomBytes } from 'node:crypto';
import { type CryptoKey, generateKeyPair, type KeyObject, SignJWT } from 'jose';
import { attackers } from '../fuzz/jwt/kit.ts';
import type { Kit } from './kit.ts';

/** RS256 … PS512: an RSA key (RFC 7518 §3.3, §3.5: 2048 bits or more), whose generation costs 0.1–0.45 CPU-s. */
const RSA_ALG = /^(?:RS|PS)(?:256|384|512)$/;

/**
 * One key per algorithm and worker. The RSA algorithms sign with the attacker's RSA key (specs/fuzz/jwt/
 * attacker-keys.json), public by design: a target that accepted it would fail the rule, never pass it, and no
 * worker pays a generation. The others (EC, EdDSA: about a millisecond) are generated.
 */
const strangers = new Map<string, Promise<CryptoKey | KeyObject>>();
function strangerKey(alg: string): Promise<CryptoKey | KeyObject> {
  let key = strangers.get(alg);
  if (!key) {
    const rsa = RSA_ALG.test(alg) ? attackers().find((k) => k.alg === 'RS256') : undefined;
    key = rsa ? Promise.resolve(rsa.privateKey) : generateKeyPair(alg).then((pair) => pair.privateKey);
    strangers.set(alg, key);
  }
  return key;
}

/**
 * A JWT with the user's claims, signed by a key the target never saw: same alg (and kid, so a JWKS
 * lookup finds a key and the signature check is what refuses it). Without signing material, an HS256
 * JWT with generic claims.
 */
export async function unknownKeyToken(kit: Kit): Promise<string> {
  const material = kit.mint?.material;
  const claims = kit.mint?.claims(
    kit.identity('user')?.jwtClaims ?? kit.identity('admin')?.jwtClaims ?? {},
  ) ?? {
    sub: 'gatecheck-unknown',
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(Date.now() / 1000) + 600,
  };
  const kid = typeof material?.privateJwk?.kid === 'string' ? material.privateJwk.kid : undefined;
  let key: CryptoKey | KeyObject | Uint8Array = randomBytes(32);
  let alg = 'HS256';
  if (material && !material.alg.startsWith('HS')) {
    alg = material.alg;
    key = await strangerKey(alg);
  } else if (material) {
    alg = material.alg;
    key = randomBytes(64);
  }
  return new SignJWT(claims)
    .setProtectedHeader({ alg, typ: 'JWT', ...(kid === undefined ? {} : { kid }) })
    .sign(key);
}

/** Known user with a wrong password, and an unknown user (RFC 7617 §2 user-pass, both well-formed). */
export function wrongBasic(kit: Kit): { label: string; authorization: string }[] {
  const known = kit.identity('user')?.basic ?? kit.identity('admin')?.basic;
  const out = [
    {
      label: 'an unknown user',
      authorization: kit.credentials.basic(
        `gatecheck-nobody-${randomBytes(4).toString('hex')}`,
        'not-a-password',
      ),
    },
  ];
  if (known) {
    out.unshift({
      label: 'a known user with a wrong password',
      authorization: kit.credentials.basic(known.username, `${known.password}-wrong`),
    });
  }
  return out;
}

/**
 * A random key, and a known key with its last character changed. Neither reaches the comparison's length
 * boundary — a server that matches prefixes, or compares only up to the shorter key, refuses both — so the
 * near misses (prefixes, appended characters, case, whitespace) are the `auth.boundary.*` rules'
 * (specs/conformance/boundaries.spec.ts).
 */
export function wrongApikeys(kit: Kit): { label: string; authorization: string }[] {
  const out = [
    {
      label: 'a random key',
      authorization: kit.credentials.apikey(`gck_${randomBytes(18).toString('base64url')}`),
    },
  ];
  const known = kit.identity('user')?.apikey ?? kit.identity('admin')?.apikey;
  if (known) {
    const last = known.slice(-1) === 'A' ? 'B' : 'A';
    out.unshift({
      label: 'a known key with its last character changed',
      authorization: kit.credentials.apikey(`${known.slice(0, -1)}${last}`),
    });
  }
  return out;
}
