/**
 * The signature algorithms, with node:crypto. Ed25519 (RFC 8032) signs the PAE bytes themselves. ECDSA P-256
 * signs SHA-256 of them, and its signature is ASN.1 DER (`dsaEncoding: 'der'`): DSSE leaves the format to
 * signer and verifier, and DER is what the common DSSE verifiers check — go-securesystemslib (in-toto-golang)
 * and sigstore sign and verify with ecdsa.SignASN1 / VerifyASN1. A raw r‖s signature (IEEE P1363, 64 bytes),
 * as in the DSSE specification's own test vector, is accepted when verifying.
 */
import { type KeyObject, sign, verify } from 'node:crypto';
import type { KeyAlgorithm } from './keys.ts';

export function signBytes(message: Uint8Array, privateKey: KeyObject, algorithm: KeyAlgorithm): Buffer {
  return algorithm === 'Ed25519'
    ? sign(null, message, privateKey)
    : sign('sha256', message, { key: privateKey, dsaEncoding: 'der' });
}

function attempt(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    // A signature that is not even well-formed (bad DER) does not verify.
    return false;
  }
}

export function verifyBytes(
  message: Uint8Array,
  signature: Uint8Array,
  publicKey: KeyObject,
  algorithm: KeyAlgorithm,
): boolean {
  if (algorithm === 'Ed25519') return attempt(() => verify(null, message, publicKey, signature));
  if (attempt(() => verify('sha256', message, { key: publicKey, dsaEncoding: 'der' }, signature)))
    return true;
  return (
    signature.length === 64 &&
    attempt(() => verify('sha256', message, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature))
  );
}
