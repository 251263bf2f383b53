/** DSSE signing (DSSE protocol v1.0.2, "To sign"): sign PAE(payloadType, body), wrap it in the JSON envelope. */
import { encodeBase64 } from './base64.ts';
import type { Envelope } from './envelope.ts';
import type { SigningKey } from './keys.ts';
import { pae } from './pae.ts';
import { signBytes } from './signature.ts';

export function signEnvelope(payloadType: string, body: Uint8Array, key: SigningKey): Envelope {
  const signature = signBytes(pae(payloadType, body), key.privateKey, key.algorithm);
  return {
    payload: encodeBase64(body),
    payloadType,
    signatures: [{ keyid: key.keyId, sig: encodeBase64(signature) }],
  };
}
