/**
 * The report's last line of defence: every string that goes into conformance.json, the HTML page and
 * summary.md passes through a Scrubber. The suite already redacts what it attaches (specs/lib/redact.ts);
 * this catches what slipped through — a token echoed in an error message, a curl line built by hand.
 */

import { redactHeaders, redactSecrets } from '../lib/redact.ts';

const MARK = '…[redacted]';

/**
 * `Authorization: <scheme> <credentials>` written out in free text (curl `-H` lines, raw requests,
 * assertion messages). RFC 9110 §11.6.2: credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ].
 * Credentials shorter than 8 characters are left alone: prose like "Authorization: Basic with…" is not a secret.
 */
const AUTHORIZATION_IN_TEXT =
  /((?:proxy-)?authorization\s*[:=]\s*["']?)([A-Za-z][\w!#$%&'*+.^`|~-]*)([ \t]+)([^\s"'\\,]{8,})/gi;

/** A compact JWS (RFC 7515 §7.1): the protected header stays (it names the alg), payload and signature go. */
const JWT_IN_TEXT = /\b(eyJ[A-Za-z0-9_-]{4,})\.([A-Za-z0-9_-]{4,})\.([A-Za-z0-9_-]*)/g;

/** RFC 3986 §3.2.1: user information in a URI; "use of the format user:password ... is deprecated". */
const USERINFO_IN_URL = /\b(https?:\/\/)([^\s/@:]+):([^\s/@]+)@/gi;

const ALREADY_REDACTED = /^[^\s]{0,4}…\[redacted\]$/;

export class Scrubber {
  readonly #secrets: readonly string[];

  constructor(secrets: Iterable<string>) {
    this.#secrets = [...secrets];
  }

  /** A free-text string: known secrets first (whole values), then credential-shaped patterns. */
  text(value: string): string {
    let out = redactSecrets(value, this.#secrets);
    out = out.replace(
      AUTHORIZATION_IN_TEXT,
      (whole, lead: string, scheme: string, gap: string, cred: string) =>
        ALREADY_REDACTED.test(cred) ? whole : `${lead}${scheme}${gap}${cred.slice(0, 4)}${MARK}`,
    );
    out = out.replace(JWT_IN_TEXT, (_whole, header: string) => `${header}.${MARK}`);
    out = out.replace(USERINFO_IN_URL, (_whole, scheme: string, user: string) => `${scheme}${user}:${MARK}@`);
    return out;
  }

  /** Header maps: credential-carrying headers keep only their scheme and a short prefix. */
  headers(headers: Readonly<Record<string, string>>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(redactHeaders(headers))) out[name] = this.text(value);
    return out;
  }

  /** Any JSON value: every string scrubbed, every `headers` object scrubbed as headers. */
  deep<T>(value: T): T {
    return this.#deep(value, '') as T;
  }

  #deep(value: unknown, key: string): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.#deep(item, ''));
    if (value === null || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    if (key === 'headers' && Object.values(record).every((v) => typeof v === 'string')) {
      return this.headers(record as Record<string, string>);
    }
    const out: Record<string, unknown> = {};
    for (const [childKey, child] of Object.entries(record))
      out[this.text(childKey)] = this.#deep(child, childKey);
    return out;
  }
}
