import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { b64url, encodeJson } from '../compact.ts';
import type { JwtKit } from '../kit.ts';
import { claimsFor, escalationNote, type JwtMutation } from '../mutation.ts';

/** Key ids that reach a file system, an SQL query or a shell when a verifier uses `kid` unchecked. */
const KIDS = [
  '../../../../../../../../dev/null',
  '/dev/null',
  '../../../../../../../../proc/sys/kernel/randomize_va_space',
  "' OR '1'='1",
  "x' UNION SELECT 'secret' -- ",
  'key|true',
  '$(true)',
  '',
];

/** The secrets such a lookup yields (empty, "secret", /dev/null's content, a single "0"), or the original alg. */
const SECRETS = ['', 'secret', '0', 'original alg and signature'];

/** One case: `kid` injected, MAC'd with HS256 under `secret` (or the original alg and signature kept). */
function kidCase(kit: JwtKit, kid: string, secret: string, up: boolean): JwtMutation {
  const keepAlg = secret === 'original alg and signature';
  const header = { ...kit.header, kid, ...(keepAlg ? {} : { alg: 'HS256' }) };
  const input = `${encodeJson(header)}.${encodeJson(claimsFor(kit, up))}`;
  const signature = keepAlg ? kit.segments[2] : b64url(createHmac('sha256', secret).update(input).digest());
  return {
    attack: 'kid-injection',
    variant: `kid ${JSON.stringify(kid)}, ${keepAlg ? secret : `HS256 with secret ${JSON.stringify(secret)}`}${escalationNote(up)}`,
    token: `${input}.${signature}`,
    escalated: up,
  };
}

/**
 * `kid` injection: a key id that is a path traversal, an SQL fragment, a shell fragment or empty, with the
 * token MAC'd by HS256 under the secret such a lookup would yield (empty, "secret", the content of
 * /dev/null, a single "0"), or keeping the original algorithm and signature.
 *
 * RFC 7515 §4.1.4 (`kid` is a hint, "The structure of the kid value is unspecified"); RFC 8725 §3.10:
 * "kid … can be used … for SQL or LDAP injection" — "These values should be sanitized". RFC 8725 §3.1 rules
 * out the HS256 switch whatever the key lookup does.
 */
export function kidInjectionMutation(
  kit: JwtKit,
  escalate: fc.Arbitrary<boolean> = fc.boolean(),
): fc.Arbitrary<JwtMutation> {
  return fc
    .record({ kid: fc.constantFrom(...KIDS), secret: fc.constantFrom(...SECRETS), escalate })
    .map(({ kid, secret, escalate: up }) => kidCase(kit, kid, secret, up));
}

/**
 * The whole space of kidInjectionMutation: 8 key ids × 4 secrets × claims kept or escalated, 64 tokens — a
 * verifier that reads its key from the file a traversal names is shown only by the pair (traversal, the empty
 * secret), which a draw of a few dozen misses on some seeds (issue #68).
 */
export function kidInjectionWhole(kit: JwtKit): readonly JwtMutation[] {
  return KIDS.flatMap((kid) =>
    SECRETS.flatMap((secret) => [false, true].map((up) => kidCase(kit, kid, secret, up))),
  );
}
