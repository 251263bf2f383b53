/**
 * The profile as the statement embeds it: every field, every credential replaced by "[redacted]". The
 * statement then says which target description the run used (paths, methods, schemes, identities, JWT issuer
 * and audience, rate limit, budget) and its digest identifies that description — and no secret leaves.
 *
 * Which fields are credentials: every place fixtures/schemas/profile.schema.json types as `secret`
 * (identity bearer/apikey, basic password, OAuth client id and secret, grant username and password, login
 * fields), JWT signing material (`privateJwk`, `secret`), the private members of any JWK (RFC 7518 §6.2.2,
 * §6.3.2, §6.4.1), the client certificate's key, the fault trigger's header values and any header that
 * authenticates (specs/lib/redact.ts). Basic usernames go too. An `{ "env": NAME }` reference stays: it names
 * where the secret comes from, never the secret. Whatever is left passes through the report's Scrubber with
 * the profile's secrets (environment values included), so a secret repeated elsewhere is caught as well.
 */
import { isSecretHeader } from '../../specs/lib/redact.ts';
import { Scrubber } from '../../specs/report/scrub.ts';
import { profileSecrets } from '../../specs/report/secrets.ts';

export const REDACTED = '[redacted]';

/** Fields whose whole value is a credential, wherever they sit. */
const CREDENTIAL_FIELDS = new Set([
  'bearer',
  'apikey',
  'apiKey',
  'password',
  'username',
  'secret',
  'clientId',
  'clientSecret',
  'privateJwk',
]);
const JWK_PRIVATE_MEMBERS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth']);

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isEnvReference(value: unknown): boolean {
  return isRecord(value) && Object.keys(value).length === 1 && typeof value.env === 'string';
}

/** `path` is the chain of keys from the profile's root, e.g. ['fault', 'headers', 'X-Fault']. */
function isCredential(path: readonly string[], parent: Json): boolean {
  const key = path.at(-1) ?? '';
  const above = path.at(-2);
  if (CREDENTIAL_FIELDS.has(key)) return true;
  if (typeof parent.kty === 'string' && JWK_PRIVATE_MEMBERS.has(key)) return true;
  if (path.length === 2 && path[0] === 'tls' && key === 'key') return true;
  // A string-valued `token` is a credential; an identity's `token` object says how to get one.
  if (key === 'token' && typeof parent[key] === 'string') return true;
  if (above === 'json' || above === 'form') return path.at(-3) === 'login';
  if (above === 'headers' || above === 'unblockedHeaders') return path[0] === 'fault' || isSecretHeader(key);
  return false;
}

export function redactProfile(raw: unknown, env: NodeJS.ProcessEnv = process.env): unknown {
  const scrub = new Scrubber(profileSecrets(raw, env));
  const walk = (value: unknown, path: readonly string[], parent: Json | undefined): unknown => {
    if (isEnvReference(value)) return value;
    if (parent && isCredential(path, parent)) return REDACTED;
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
