import fc from 'fast-check';
import { b64url, encodeJson } from '../compact.ts';
import type { JwtKit } from '../kit.ts';
import type { JwtMutation } from '../mutation.ts';

/**
 * Claims changed without re-signing, header and signature kept: role escalated to admin, `sub` changed to
 * the admin's (impersonation), `exp` pushed years ahead, an `admin: true` claim added, or the same claims
 * re-serialised with whitespace (same meaning, different octets — the signature covers octets).
 *
 * RFC 7515 §5.2 step 8 (signature over `ASCII(BASE64URL(header) "." BASE64URL(payload))`, RFC 7515 §5.1);
 * RFC 7519 §7.2 step 6.
 */
export function payloadTamperMutation(kit: JwtKit, escalateOnly = false): fc.Arbitrary<JwtMutation> {
  const [h, , s] = kit.segments;
  // Should a change leave the octets as they were (the user already has that claim), mark them changed.
  const token = (claims: Readonly<Record<string, unknown>>): string => {
    const encoded = encodeJson(claims);
    return `${h}.${encoded === kit.segments[1] ? encodeJson({ ...claims, gatecheck: 'tampered' }) : encoded}.${s}`;
  };
  const escalations = [
    {
      attack: 'payload-tamper',
      variant: 'role escalated to admin, not re-signed',
      token: token({ ...kit.payload, ...kit.escalation }),
      escalated: true,
    },
    {
      attack: 'payload-tamper',
      variant: "sub changed to the admin's, not re-signed",
      token: token({ ...kit.payload, ...kit.escalation, sub: kit.adminSub }),
      escalated: true,
    },
    {
      attack: 'payload-tamper',
      variant: 'claim "admin": true added, not re-signed',
      token: token({ ...kit.payload, admin: true }),
      escalated: true,
    },
  ];
  if (escalateOnly) return fc.constantFrom(...escalations);
  const years = fc.integer({ min: 1, max: 50 }).map(
    (y): JwtMutation => ({
      attack: 'payload-tamper',
      variant: `exp pushed ${y} years ahead, not re-signed`,
      token: token({ ...kit.payload, exp: kit.now + y * 31_557_600 }),
      escalated: false,
    }),
  );
  const whitespace: JwtMutation = {
    attack: 'payload-tamper',
    variant: 'same claims re-serialised with whitespace, not re-signed',
    token: `${h}.${b64url(JSON.stringify(kit.payload, null, 1))}.${s}`,
    escalated: false,
  };
  return fc.oneof(fc.constantFrom(...escalations), years, fc.constant(whitespace));
}
