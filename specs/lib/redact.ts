/**
 * No secret leaves: tokens, passwords and API keys never reach logs, reports, JUnit or HTML.
 * A credential keeps only a short prefix so a reader can tell which one was meant:
 * `Bearer eyJh…[redacted]`.
 */

import { isSecretHeader } from '../../shared/secrets.ts';

const KEEP = 4;
const MARK = '…[redacted]';

/**
 * The shortest secret searched for in free text: a shorter one (a fault trigger's `500`) is too likely to
 * collide with ordinary text — a status code, a duration — and is redacted only where it sits.
 */
export const SHORTEST_SEARCHED_SECRET = 6;

/** `Bearer eyJhbGciOi...` → `Bearer eyJh…[redacted]`; the scheme name stays, the credential goes. */
export function redactAuthorization(value: string): string {
  const match = /^(\s*)(\S+)(\s+)(\S[\s\S]*)$/.exec(value);
  if (!match) return value.length > 0 ? `${value.slice(0, Math.min(KEEP, value.length - 1))}${MARK}` : value;
  const [, lead = '', scheme = '', gap = '', credential = ''] = match;
  return `${lead}${scheme}${gap}${credential.slice(0, KEEP)}${MARK}`;
}

export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = isSecretHeader(name) ? redactAuthorization(value) : value;
  }
  return out;
}

/**
 * Replaces every occurrence of each known secret (and its base64 form, as Basic sends it) in free text.
 * Secrets shorter than SHORTEST_SEARCHED_SECRET are skipped.
 */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < SHORTEST_SEARCHED_SECRET) continue;
    for (const form of [secret, Buffer.from(secret, 'utf8').toString('base64')]) {
      if (out.includes(form)) out = out.split(form).join(`${form.slice(0, KEEP)}${MARK}`);
    }
  }
  return out;
}
