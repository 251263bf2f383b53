import fc from 'fast-check';
import { b64url } from '../compact.ts';
import type { JwtKit } from '../kit.ts';
import type { JwtMutation } from '../mutation.ts';

/**
 * The valid token with its signature stripped (empty, or the segment gone), truncated by 1 to n−1 octets,
 * one bit flipped, or zeroed. Header and claims stay as signed.
 *
 * RFC 7515 §5.2 step 8: "Validate the JWS Signature … If validation fails, the JWS MUST be rejected."
 *
 *   JWS = header "." payload "." BASE64URL(damaged signature octets)
 *
 * Damage is done on the decoded octets and re-encoded, so no change hides in base64url's unused pad bits.
 */
export function signatureMutation(kit: JwtKit): fc.Arbitrary<JwtMutation> {
  const [h, p, s] = kit.segments;
  const sig = Buffer.from(s, 'base64url');
  const n = Math.max(1, sig.length);
  const mutation = (variant: string, token: string): JwtMutation => ({
    attack: 'signature',
    variant,
    token,
    escalated: false,
  });
  return fc.oneof(
    fc.constant(mutation('signature stripped, trailing dot kept', `${h}.${p}.`)),
    fc.constant(mutation('signature segment removed', `${h}.${p}`)),
    fc
      .integer({ min: 1, max: Math.max(1, n - 1) })
      .map((cut) =>
        mutation(`signature truncated by ${cut} octets`, `${h}.${p}.${b64url(sig.subarray(0, n - cut))}`),
      ),
    fc
      .record({ at: fc.integer({ min: 0, max: n - 1 }), bit: fc.integer({ min: 0, max: 7 }) })
      .map(({ at, bit }) => {
        const flipped = Buffer.from(sig.length > 0 ? sig : Buffer.alloc(1));
        flipped[at] = (flipped[at] ?? 0) ^ (1 << bit);
        return mutation(`signature bit ${bit} of octet ${at} flipped`, `${h}.${p}.${b64url(flipped)}`);
      }),
    fc.constant(mutation('signature zeroed', `${h}.${p}.${b64url(Buffer.alloc(n))}`)),
  );
}
