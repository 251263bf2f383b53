import fc from 'fast-check';
import { b64url, encodeJson } from '../compact.ts';
import type { JwtKit } from '../kit.ts';
import { claimsFor, escalationNote, type JwtMutation } from '../mutation.ts';

/**
 * Unsecured JWS (RFC 7515 Appendix A.5): `alg` "none" in any letter case, with an empty signature, the
 * original signature kept, or random octets; claims kept or escalated.
 *
 * RFC 7518 §3.6: "Implementations MUST NOT accept Unsecured JWSs by default"; RFC 8725 §3.1/§3.2.
 *
 *   JWS = BASE64URL({"alg":"none",…}) "." BASE64URL(claims) "." [ signature ]
 */
export function algNoneMutation(
  kit: JwtKit,
  escalate: fc.Arbitrary<boolean> = fc.boolean(),
): fc.Arbitrary<JwtMutation> {
  return fc
    .record({
      alg: fc.mixedCase(fc.constant('none')),
      signature: fc.oneof(
        fc.constant({ name: 'empty signature', value: '' }),
        fc.constant({ name: 'signature kept', value: kit.segments[2] }),
        fc
          .uint8Array({ minLength: 1, maxLength: 64 })
          .map((bytes) => ({ name: 'random signature', value: b64url(bytes) })),
      ),
      escalate,
    })
    .map(({ alg, signature, escalate: up }) => ({
      attack: 'alg-none',
      variant: `alg ${JSON.stringify(alg)}, ${signature.name}${escalationNote(up)}`,
      token: `${encodeJson({ ...kit.header, alg })}.${encodeJson(claimsFor(kit, up))}.${signature.value}`,
      escalated: up,
    }));
}
