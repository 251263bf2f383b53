import fc from 'fast-check';
import type { JwtKit, KitUnavailable } from '../kit.ts';
import type { JwtMutation } from '../mutation.ts';

/**
 * A validly signed token "issued" one day to ten years in the future (its `exp` an hour after that).
 *
 * RFC 7519 §4.1.6: `iat` "identifies the time at which the JWT was issued"; a token from the future was not
 * issued by a sane issuer, and RFC 8725 §3.10 says not to trust claims blindly. No MUST forbids it, so the
 * rule that uses this is a SHOULD.
 *
 *   iat = now + leeway + Δ,  Δ ∈ {1 day, 30 days, 1 year, 10 years};  exp = iat + 3600
 */
export function iatFutureMutation(kit: JwtKit): fc.Arbitrary<JwtMutation> | KitUnavailable {
  const { sign } = kit;
  if (!sign)
    return { unavailable: 'profile lacks jwt signing material (privateJwk or secret) to re-sign tokens' };
  return fc.constantFrom(86_400, 30 * 86_400, 31_557_600, 10 * 31_557_600).map((delta) => {
    const iat = kit.now + kit.leewaySeconds + delta;
    return {
      attack: 'iat-future',
      variant: `iat ${delta} s after now + leeway`,
      token: sign(kit.header, { ...kit.payload, iat, exp: iat + 3600 }),
      escalated: false,
    };
  });
}
