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

/** Every spelling of "none" in upper and lower case letters: 16. */
function noneSpellings(): string[] {
  return Array.from({ length: 16 }, (_, bits) =>
    [...'none'].map((c, i) => ((bits >> i) & 1 ? c.toUpperCase() : c)).join(''),
  );
}

/**
 * The finite part of algNoneMutation, sent whole (issue #68): each of the 16 letter cases of "none" with an
 * empty signature and with the original one kept, claims kept or escalated — 64 tokens. A verifier that
 * compares `alg` to one spelling ("none", "None") is caught by the others on every seed; random signatures
 * stay drawn.
 */
export function algNoneWhole(kit: JwtKit): readonly JwtMutation[] {
  const signatures = [
    { name: 'empty signature', value: '' },
    { name: 'signature kept', value: kit.segments[2] },
  ];
  return noneSpellings().flatMap((alg) =>
    signatures.flatMap((signature) =>
      [false, true].map((up) => ({
        attack: 'alg-none',
        variant: `alg ${JSON.stringify(alg)}, ${signature.name}${escalationNote(up)}`,
        token: `${encodeJson({ ...kit.header, alg })}.${encodeJson(claimsFor(kit, up))}.${signature.value}`,
        escalated: up,
      })),
    ),
  );
}
