/** Signature checks the Bearer-token defects share (mock/defects/bearer-tokens/*.ts). */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** RFC 7518 §3.1: the HMAC and ECDSA `alg` values. */
export const HMAC = /^HS(256|384|512)$/;
export const ECDSA = /^ES(256|384|512)$/;
/** DER SEQUENCE { INTEGER 0, INTEGER 0 }: the zero signature in the form some libraries take. */
const DER_ZERO = Buffer.from([0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00]);

/** Whether the token's signature is the HMAC (RFC 7518 §3.2) of its signing input under one of `secrets`. */
export function macMatches(parts: readonly string[], alg: string, secrets: readonly string[]): boolean {
  const signature = Buffer.from(parts[2] as string, 'base64url');
  const input = `${parts[0]}.${parts[1]}`;
  const hash = `sha${alg.slice(2)}`;
  return secrets.some((secret) => {
    const mac = createHmac(hash, secret).update(input).digest();
    return mac.length === signature.length && timingSafeEqual(mac, signature);
  });
}

/** r = s = 0, raw (RFC 7518 §3.4) or DER-encoded. */
export function isZeroSignature(segment: string): boolean {
  const signature = Buffer.from(segment, 'base64url');
  if (signature.length === 0) return false;
  return signature.every((byte) => byte === 0) || signature.equals(DER_ZERO);
}
