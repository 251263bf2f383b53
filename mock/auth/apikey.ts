/**
 * The Apikey scheme (seed §5): `Authorization: Apikey <key>`, the key a token68. Keys are stored as their
 * SHA-256 (fixtures/identities.json), never in plaintext.
 */
import { timingSafeEqual } from 'node:crypto';
import { sha256 } from './digest.ts';
import { authFailure } from './failures.ts';
import type { IdentityStore } from './identity-store.ts';
import type { AuthResult, Identity } from './types.ts';

/**
 * Verifies the token68 after `Apikey ` (already checked to be token68) by its base64url SHA-256 and that
 * digest's characters as bytes, which the authenticator has made (mock/auth/prepared.ts). Synchronous: one
 * lookup, one constant-time comparison.
 */
export type ApikeyVerifier = (digest: string, digestBytes: Buffer) => AuthResult;

const unknownKey = authFailure('apikey_unknown', 'API key is not valid', 'apikey');

export function createApikeyVerifier(store: IdentityStore): ApikeyVerifier {
  // One Identity object per owner, made once: a hit allocates nothing but the result. The store keeps hex
  // digests; they are looked up here in base64url, the encoding every verifier's digest comes in, and the
  // digest's characters as bytes are what the constant-time comparison below compares.
  const owners = new Map<string, { identity: Identity; digestBytes: Buffer }>();
  for (const { identity, digest } of store.apikeys.values()) {
    const encoded = digest.toString('base64url');
    owners.set(encoded, {
      identity: Object.freeze({ ...identity, scheme: 'apikey' }),
      digestBytes: Buffer.from(encoded, 'latin1'),
    });
  }
  // As long as every digest (43 base64url characters), so the comparison below runs on equal lengths.
  const dummy = Buffer.alloc(sha256('').length);

  return (digest, digestBytes) => {
    /*
     * Looking the key up by its digest is safe although Map lookups are not constant-time: what the lookup's
     * timing could leak is how close the digest of the attacker's own guess is to a stored digest, and
     * SHA-256's preimage resistance means knowing stored digests (even whole ones) does not yield a key. The
     * attacker cannot steer a guess's digest toward a stored one, so timing gives no gradient to climb.
     */
    const owner = owners.get(digest);
    // Compare the digests anyway, in constant time, so the found and not-found paths do the same work and a
    // lookup that ever matched on something other than the full digest could not let a wrong key through.
    const matches = timingSafeEqual(digestBytes, owner?.digestBytes ?? dummy);
    if (owner === undefined || !matches) return unknownKey;
    return { ok: true, identity: owner.identity };
  };
}
