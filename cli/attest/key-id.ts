/**
 * A key's id: the RFC 7638 JWK SHA-256 thumbprint of its public key, base64url. Computed from the public
 * JWK whatever form the key came in (PEM or JWK, private or public), so the signer and every verifier name the
 * same key the same way. jose's calculateJwkThumbprint keeps the required members, orders them and hashes
 * (RFC 7638 §3.2: Ed25519 crv/kty/x, EC crv/kty/x/y).
 */
import type { KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';

export async function keyIdOf(publicKey: KeyObject): Promise<string> {
  return calculateJwkThumbprint(publicKey.export({ format: 'jwk' }) as JWK, 'sha256');
}
