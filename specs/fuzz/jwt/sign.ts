/**
 * Synchronous JWS signing with node:crypto (RFC 7518 §3), so mutation arbitraries can re-sign inside
 * fast-check's synchronous `map`. Covers the HS, RS, PS and ES families and EdDSA (RFC 8037).
 */
import { constants, createHmac, type KeyObject, sign } from 'node:crypto';
import { b64url } from './compact.ts';

const memo = new WeakMap<KeyObject, Map<string, string>>();
const MEMO_LIMIT = 4096;

/**
 * The JWS Signature over `signingInput` (ASCII of `header.payload`), base64url-encoded. Memoised per key:
 * an RSA signature costs a millisecond or more, and mutation arbitraries draw the same inputs again and again.
 */
export function signJws(alg: string, key: KeyObject, signingInput: string): string {
  let cache = memo.get(key);
  if (cache === undefined) {
    cache = new Map();
    memo.set(key, cache);
  }
  const id = `${alg}\n${signingInput}`;
  const hit = cache.get(id);
  if (hit !== undefined) return hit;
  const signature = computeSignature(alg, key, signingInput);
  if (cache.size >= MEMO_LIMIT) cache.clear();
  cache.set(id, signature);
  return signature;
}

function computeSignature(alg: string, key: KeyObject, signingInput: string): string {
  const data = Buffer.from(signingInput, 'ascii');
  const family = alg.slice(0, 2);
  const bits = alg.slice(2);
  const hash = `sha${bits}`;
  switch (family) {
    case 'HS':
      return b64url(createHmac(hash, key).update(data).digest());
    case 'RS':
      return b64url(sign(hash, data, key));
    case 'PS':
      return b64url(
        sign(hash, data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(bits) / 8 }),
      );
    case 'ES':
      // RFC 7518 §3.4: R || S, fixed length, not DER.
      return b64url(sign(hash, data, { key, dsaEncoding: 'ieee-p1363' }));
    default:
      if (alg === 'EdDSA') return b64url(sign(null, data, key));
      throw new TypeError(`cannot sign with alg ${alg}`);
  }
}
