import fc from 'fast-check';
import type { JwtKit, KitUnavailable } from '../kit.ts';
import type { JwtMutation } from '../mutation.ts';

const YEAR = 31_557_600;

/**
 * Validly signed tokens whose time claims forbid their use now: `exp` in the past or `nbf` in the future,
 * each beyond the target's leeway by one minute to ten years.
 *
 * RFC 7519 §4.1.4: the token "MUST NOT be accepted for processing" on or after `exp`;
 * RFC 7519 §4.1.5: it "MUST NOT be accepted for processing" before `nbf` (both allow "some small leeway").
 *
 *   exp = now − leeway − Δ      nbf = now + leeway + Δ,  Δ ∈ {1 min, 1 h, 1 day, 30 days, 1 year, 10 years}
 */
export function timeClaimsMutation(kit: JwtKit): fc.Arbitrary<JwtMutation> | KitUnavailable {
  const { sign } = kit;
  if (!sign)
    return { unavailable: 'profile lacks jwt signing material (privateJwk or secret) to re-sign tokens' };
  const margin = kit.leewaySeconds;
  return (
    fc
      // A few magnitudes rather than any integer: each distinct token costs a signature, and the verdict
      // cannot depend on the exact second once it is beyond the leeway.
      .record({
        which: fc.constantFrom('exp', 'nbf'),
        delta: fc.constantFrom(60, 3600, 86_400, 30 * 86_400, YEAR, 10 * YEAR),
      })
      .map(({ which, delta }) => {
        const claims =
          which === 'exp'
            ? { ...kit.payload, iat: kit.now - margin - delta - 600, exp: kit.now - margin - delta }
            : {
                ...kit.payload,
                iat: kit.now,
                nbf: kit.now + margin + delta,
                exp: kit.now + margin + delta + 3600,
              };
        return {
          attack: 'time-claims',
          variant:
            which === 'exp' ? `exp ${delta} s before now − leeway` : `nbf ${delta} s after now + leeway`,
          token: sign(kit.header, claims),
          escalated: false,
        };
      })
  );
}
