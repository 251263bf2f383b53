/** SHA-256 digests as in-toto writes them (DigestSet: lowercase hex, in-toto attestation spec v1 digest_set.md). */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * SHA-256 of a JSON value's RFC 8785 (JCS) serialization: the same digest whichever tool serializes the value,
 * so a reader can recompute it from the statement (e.g. `jq` plus any JCS implementation).
 */
export function canonicalSha256(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('a JSON value has no canonical form');
  return sha256Hex(text);
}
