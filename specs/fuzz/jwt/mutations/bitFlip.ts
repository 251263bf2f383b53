import fc from 'fast-check';
import { b64url } from '../compact.ts';
import type { JwtKit } from '../kit.ts';
import type { JwtMutation } from '../mutation.ts';

/**
 * One bit flipped anywhere in the token: in the decoded octets of the header, the claims or the signature,
 * re-encoded (so the change is never lost in base64url's unused pad bits). Either the signing input or the
 * signature changes, so no verifier may accept the result.
 *
 * RFC 7515 §5.2 steps 2–8; RFC 7515 §5.1 (the signature covers `ASCII(header "." payload)`).
 */
export function bitFlipMutation(kit: JwtKit): fc.Arbitrary<JwtMutation> {
  const decoded = kit.segments.map((segment) => Buffer.from(segment, 'base64url'));
  const names = ['header', 'claims', 'signature'] as const;
  return fc
    .record({ segment: fc.constantFrom(0, 1, 2), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) })
    .map(({ segment, at, bit }) => {
      const octets = Buffer.from(decoded[segment] ?? Buffer.alloc(1));
      const i = octets.length === 0 ? 0 : at % octets.length;
      const flipped = octets.length === 0 ? Buffer.from([1 << bit]) : octets;
      if (octets.length > 0) flipped[i] = (flipped[i] ?? 0) ^ (1 << bit);
      const segments = kit.segments.map((s, k) => (k === segment ? b64url(flipped) : s));
      return {
        attack: 'bit-flip',
        variant: `bit ${bit} of ${names[segment]} octet ${i} flipped`,
        token: segments.join('.'),
        escalated: false,
      };
    });
}
