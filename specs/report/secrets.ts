/**
 * Which strings of a profile are secrets. The walk is over the raw JSON, not the typed Profile, so a
 * profile the loader would refuse (an unknown key, a misspelt field) still has its credentials found.
 */

/** Keys whose string values are credentials wherever they sit in the profile. */
const SECRET_KEYS = new Set(['bearer', 'password', 'apikey', 'apiKey', 'secret', 'token', 'clientSecret']);

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** RFC 7518 §6.3.2 / §6.2.2 / §6.4.1: the private members of RSA, EC and symmetric ("oct") JWKs. */
const JWK_PRIVATE_MEMBERS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'k']);

function looksLikeJwk(value: Record<string, unknown>): boolean {
  return typeof value.kty === 'string';
}

/**
 * Every secret string in a profile, plus the `user:password` pair Basic sends base64-encoded. A secret
 * written `{ "env": "NAME" }` is looked up in `env` (docs/profile.md "Secrets from the environment").
 */
export function profileSecrets(profile: unknown, env: NodeJS.ProcessEnv = process.env): string[] {
  const found = new Set<string>();
  const fromEnv = (value: unknown): string | undefined => {
    const name = (value as { env?: unknown } | null)?.env;
    return typeof name === 'string' && value !== null && typeof value === 'object' && !Array.isArray(value)
      ? env[name] || undefined
      : undefined;
  };
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    const jwk = looksLikeJwk(record);
    for (const [key, child] of Object.entries(record)) {
      const referenced = fromEnv(child);
      if (referenced !== undefined) {
        // Any referenced variable is a secret wherever it sits: only credentials are meant to come from it.
        found.add(referenced);
        if (key === 'privateJwk') walk(safeJson(referenced));
      } else if (typeof child === 'string' && child.length > 0) {
        if (SECRET_KEYS.has(key) || (jwk && JWK_PRIVATE_MEMBERS.has(key))) found.add(child);
      } else {
        walk(child);
      }
    }
    // RFC 7617 §2: user-pass = userid ":" password, then base64; redactSecrets also covers the base64 form.
    const username = typeof record.username === 'string' ? record.username : fromEnv(record.username);
    const password = typeof record.password === 'string' ? record.password : fromEnv(record.password);
    if (username !== undefined && password !== undefined) found.add(`${username}:${password}`);
  };
  walk(profile);
  // Longest first, so a secret that contains another is replaced whole before its part is.
  return [...found].sort((a, b) => b.length - a.length);
}
