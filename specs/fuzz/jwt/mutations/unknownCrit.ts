import fc from 'fast-check';
import type { JwtKit, KitUnavailable } from '../kit.ts';
import type { JwtMutation } from '../mutation.ts';

/**
 * Validly signed tokens whose `crit` header lists an extension no target understands (a URN, a short name,
 * several names), each present in the header as RFC 7515 §4.1.11 requires.
 *
 * RFC 7515 §4.1.11: "If any of the listed extension Header Parameters are not understood and supported by
 * the recipient, then the JWS is invalid."
 *
 *   crit = JSON array of 1* extension Header Parameter names
 */
export function unknownCritMutation(kit: JwtKit): fc.Arbitrary<JwtMutation> | KitUnavailable {
  const { sign } = kit;
  if (!sign)
    return { unavailable: 'profile lacks jwt signing material (privateJwk or secret) to re-sign tokens' };
  // A fixed set of names: each distinct token costs a signature, and no name is more unknown than another.
  const name = fc.constantFrom(
    'urn:gatecheck:unknown-critical',
    'gatecheck',
    'x-unknown',
    'http://ext.gatecheck.invalid/p',
    'exp-ext',
    'b64x',
  );
  return fc.uniqueArray(name, { minLength: 1, maxLength: 2 }).map((names) => ({
    attack: 'crit-unknown',
    variant: `crit ${JSON.stringify(names)}`,
    token: sign(
      { ...kit.header, crit: names, ...Object.fromEntries(names.map((n) => [n, true])) },
      kit.payload,
    ),
    escalated: false,
  }));
}
