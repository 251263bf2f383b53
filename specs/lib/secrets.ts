/**
 * What must never leave the process (docs/design.md: "no credential printed anywhere"): the profile's
 * credentials, registered once per worker, and the credentials each request carries (minted tokens
 * included). Everything the suite prints or attaches goes through `redactText`.
 */
import { redactSecrets } from './redact.ts';

const known = new Set<string>();

/** Registers secrets to redact from now on in this process. */
export function rememberSecrets(secrets: Iterable<string>): void {
  for (const s of secrets) if (s) known.add(s);
}

/** The credential parts of Authorization field lines, and the Basic user-pass and password inside them. */
export function credentialsIn(lines: readonly (readonly [string, string])[]): string[] {
  const out: string[] = [];
  for (const [name, value] of lines) {
    if (name.toLowerCase() !== 'authorization') continue;
    const [scheme = '', ...rest] = value.trim().split(/\s+/);
    const credential = rest.join(' ');
    if (credential.length > 0) out.push(credential);
    if (/^basic$/i.test(scheme)) {
      const decoded = Buffer.from(credential, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon >= 0) out.push(decoded, decoded.slice(colon + 1));
    }
  }
  return out;
}

/** Redacts every registered secret and every credential in `lines` wherever it appears in `text`. */
export function redactText(text: string, lines: readonly (readonly [string, string])[] = []): string {
  return redactSecrets(text, [...known, ...credentialsIn(lines)]);
}
