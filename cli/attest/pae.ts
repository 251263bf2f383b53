/**
 * DSSE's Pre-Authentication Encoding: the bytes a DSSE signature is computed over (DSSE protocol v1.0.2,
 * "Signature Definition"). The payload type is signed with the body, so a signature over one type can never
 * be replayed as another.
 *
 *   PAE(type, body) = "DSSEv1" + SP + LEN(type) + SP + type + SP + LEN(body) + SP + body
 *   LEN(s)          = ASCII decimal encoding of the byte length of s, with no leading zeros
 */

const SP = Buffer.from(' ');

export function pae(payloadType: string, body: Uint8Array): Buffer {
  // UTF8(PAYLOAD_TYPE): LEN counts bytes, not characters (the spec's Python reference uses len() of the str,
  // which differs only for a non-ASCII type; the spec's text is what is implemented here).
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([
    Buffer.from('DSSEv1'),
    SP,
    Buffer.from(String(type.length)),
    SP,
    type,
    SP,
    Buffer.from(String(body.length)),
    SP,
    body,
  ]);
}
