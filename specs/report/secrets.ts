/**
 * Which strings of a profile are secrets. The walk is over the raw JSON, not the typed Profile, so a
 * profile the loader would refuse (an unknown key, a misspelt field) still has its credentials found.
 */

/** Keys whose string values are credentials wherever they sit in the profile. */
const SECRET_KEYS = new Set(['bearer', 'password', 'apikey', 'apiKey', 'secret', 'token', 'clientSecret']);

/** RFC 7518 §6.3.2 / §6.2.2 / §6.4.1: the private members of RSA, EC and symmetric ("oct") JWKs. */
const JWK_PRIVATE_MEMBERS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'k']);

function looksLikeJwk(value: Record<string, unknown>): boolean {
  return typeof value.kty === 'string';
}

/** Every secret string in a profile, plus the `user:password` pair Basic sends base64-encoded. */
export function profileSecrets(profile: unknown): string[] {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    const jwk = looksLikeJwk(record);
    for (const [key, child] of Object.entries(record)) {
      if (typeof child === 'string' && child.length > 0) {
        if (SECRET_KEYS.has(key) || (jwk && JWK_PRIVATE_MEMBERS.has(key))) found.add(child);
      } else {
        walk(child);
      }
    }
    // RFC 7617 §2: user-pass = userid ":" password, then base64; redactSecrets also covers the base64 form.
    if (typeof record.username === 'string' && typeof record.password === 'string') {
      found.add(`${record.username}:${record.password}`);
    }
  };
  walk(profile);
  // Longest first, so a secret that contains another is replaced whole before its part is.
  return [...found].sort((a, b) => b.length - a.length);
}
