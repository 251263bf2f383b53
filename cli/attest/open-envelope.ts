/**
 * DSSE verification (DSSE protocol v1.0.2, "To verify"): decode, verify each signature against
 * PAE(payloadType, payload) with the one trusted key, and only then hand on the payload bytes — the same
 * bytes that were verified, never re-read from the envelope ("MUST NOT re-parse the envelope after
 * verification"). keyid is a hint only: every signature is tried, and keyid serves to say why none verified.
 */
import { decodeBase64 } from './base64.ts';
import type { Envelope } from './envelope.ts';
import type { PublicKeyInfo } from './keys.ts';
import { LIMITS, mebibytes } from './limits.ts';
import { pae } from './pae.ts';
import { verifyBytes } from './signature.ts';

export type Opened =
  | { readonly ok: true; readonly payloadType: string; readonly body: Buffer }
  | { readonly ok: false; readonly cause: string };

/** The envelope's size against limits.ts, before anything is decoded or hashed; a cause, or undefined. */
export function envelopeOverLimit(envelope: Envelope): string | undefined {
  if (envelope.signatures.length > LIMITS.signatures)
    return `statement: the envelope has ${envelope.signatures.length} signatures; at most ${LIMITS.signatures} are tried`;
  // RFC 4648 §4: 4 characters carry 3 bytes; padding carries none. Counted, not decoded.
  const characters = envelope.payload.replace(/=+$/, '').length;
  if (Math.floor((characters * 3) / 4) > LIMITS.payloadBytes)
    return `statement: the payload is over ${mebibytes(LIMITS.payloadBytes)}; at most ${mebibytes(LIMITS.payloadBytes)} is read`;
  return undefined;
}

/** The caller has checked envelopeOverLimit() first. */
export function openEnvelope(envelope: Envelope, key: PublicKeyInfo): Opened {
  const body = decodeBase64(envelope.payload);
  if (body === undefined) return { ok: false, cause: 'statement: the envelope payload is not base64' };
  if (envelope.signatures.length === 0)
    return { ok: false, cause: 'signature: the envelope has no signature' };
  const message = pae(envelope.payloadType, body);
  let decoded = 0;
  for (const { sig } of envelope.signatures) {
    const signature = decodeBase64(sig);
    if (signature === undefined) continue;
    decoded++;
    if (verifyBytes(message, signature, key.publicKey, key.algorithm))
      return { ok: true, payloadType: envelope.payloadType, body };
  }
  if (decoded === 0) return { ok: false, cause: 'signature: the signature is not base64' };
  const named = envelope.signatures.map((s) => s.keyid).filter((id): id is string => id !== undefined);
  if (named.length > 0 && !named.includes(key.keyId)) {
    return {
      ok: false,
      cause: `signature: the statement was signed by key ${named.join(', ')}, not by the key given (${key.keyId})`,
    };
  }
  return {
    ok: false,
    cause: `signature: does not verify with key ${key.keyId}: the statement's payload or signature was changed after signing`,
  };
}
