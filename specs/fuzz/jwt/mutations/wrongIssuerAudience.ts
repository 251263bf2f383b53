import fc from 'fast-check';
import type { JwtKit, KitUnavailable } from '../kit.ts';
import type { JwtMutation } from '../mutation.ts';

/**
 * Validly signed tokens whose `iss` or `aud` is not the target's: another URL, the right one with a slash
 * added or removed, or in other letter case, an audience list without the target.
 *
 * RFC 7519 §4.1.3: a recipient not identified by `aud` "MUST" reject the JWT; RFC 8725 §3.8 (issuer) and
 * §3.9 (audience). RFC 7519 §2 StringOrURI: "simple string comparisons, with no transformations or
 * canonicalizations", so case and trailing slash make another issuer.
 */
export function wrongIssuerAudienceMutation(kit: JwtKit): fc.Arbitrary<JwtMutation> | KitUnavailable {
  const { sign, issuer, audience } = kit;
  if (!sign)
    return { unavailable: 'profile lacks jwt signing material (privateJwk or secret) to re-sign tokens' };
  if (issuer === undefined && audience === undefined)
    return { unavailable: 'profile lacks jwt.issuer and jwt.audience' };
  const variants = (value: string): string[] => [
    'https://issuer.gatecheck.invalid/',
    value.endsWith('/') ? value.slice(0, -1) : `${value}/`,
    value.toUpperCase() === value ? value.toLowerCase() : value.toUpperCase(),
    `${value}x`,
  ];
  const choices: { claim: 'iss' | 'aud'; value: unknown }[] = [];
  if (issuer !== undefined)
    for (const v of variants(issuer)) if (v !== issuer) choices.push({ claim: 'iss', value: v });
  if (audience !== undefined) {
    for (const v of variants(audience)) if (v !== audience) choices.push({ claim: 'aud', value: v });
    choices.push({ claim: 'aud', value: ['https://audience.gatecheck.invalid'] });
  }
  return fc.constantFrom(...choices).map(({ claim, value }) => ({
    attack: 'wrong-iss-aud',
    variant: `${claim} ${JSON.stringify(value)}`,
    token: sign(kit.header, { ...kit.payload, [claim]: value }),
    escalated: false,
  }));
}
