import fc from 'fast-check';
import type { JwtKit, KitUnavailable } from '../kit.ts';
import type { JwtMutation } from '../mutation.ts';

/**
 * Validly signed tokens without `iss`, without `aud`, or without both, for a target whose profile names
 * an issuer and audience.
 *
 * RFC 8725 §3.9: where an issuer serves several relying parties, the relying party "MUST validate the
 * audience value, and if the audience value is not present or not associated with the recipient, it MUST
 * reject the JWT"; §3.8 likewise for the issuer. Whether that condition holds is the target's business, so
 * the rule using this is a SHOULD.
 */
export function missingIssuerAudienceMutation(kit: JwtKit): fc.Arbitrary<JwtMutation> | KitUnavailable {
  const { sign, issuer, audience } = kit;
  if (!sign)
    return { unavailable: 'profile lacks jwt signing material (privateJwk or secret) to re-sign tokens' };
  const drops: (readonly string[])[] = [];
  if (issuer !== undefined) drops.push(['iss']);
  if (audience !== undefined) drops.push(['aud']);
  if (issuer !== undefined && audience !== undefined) drops.push(['iss', 'aud']);
  if (drops.length === 0) return { unavailable: 'profile lacks jwt.issuer and jwt.audience' };
  return fc.constantFrom(...drops).map((drop) => {
    const claims = Object.fromEntries(Object.entries(kit.payload).filter(([name]) => !drop.includes(name)));
    return {
      attack: 'missing-iss-aud',
      variant: `without ${drop.join(' and ')}`,
      token: sign(kit.header, claims),
      escalated: false,
    };
  });
}
