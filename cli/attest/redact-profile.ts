/**
 * The profile as the statement embeds it: every field, every credential replaced by "[redacted]". The
 * statement then says which target description the run used (paths, methods, schemes, identities, JWT issuer
 * and audience, rate limit, budget) and its digest identifies that description — and no secret leaves.
 *
 * Which fields are credentials: shared/secrets.ts (`credentialKind`) says, for the statement as for the
 * reports — every place fixtures/schemas/profile.schema.json types as `secret` (identity bearer/apikey, basic
 * username and password, OAuth client id and secret, grant username and password, login fields), JWT signing
 * material (`privateJwk`, `secret`), the private members of any JWK (RFC 7518 §6.2.2, §6.3.2, §6.4.1), the
 * client certificate's key, the fault trigger's header values and any header that authenticates. Both kinds
 * (secret and sensitive) are redacted here. An `{ "env": NAME }` reference stays: it names
 * where the secret comes from, never the secret. Whatever is left passes through the report's Scrubber with
 * the profile's secrets (environment values included), so a secret repeated elsewhere is caught as well.
 */
import { isRecord } from '../../shared/is-record.ts';
import { credentialKind, isEnvReference, profileSecrets } from '../../shared/secrets.ts';
import { Scrubber } from '../../specs/report/scrub.ts';

export const REDACTED = '[redacted]';

type Json = Record<string, unknown>;

export function redactProfile(raw: unknown, env: NodeJS.ProcessEnv = process.env): unknown {
  const scrub = new Scrubber(profileSecrets(raw, env));
  const walk = (value: unknown, path: readonly string[], parent: Json | undefined): unknown => {
    if (isEnvReference(value)) return value;
    if (parent && credentialKind(path, parent) !== undefined) return REDACTED;
    if (typeof value === 'string') return scrub.text(value);
    if (Array.isArray(value)) return value.map((item) => walk(item, path, undefined));
    if (!isRecord(value)) return value;
    const out: Json = {};
    for (const [key, child] of Object.entries(value))
      out[scrub.text(key)] = walk(child, [...path, key], value);
    return out;
  };
  return walk(raw, [], undefined);
}
