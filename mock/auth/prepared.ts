/**
 * What one Authorization field value decides by itself (RFC 9110 §11.4): whether it is `auth-scheme
 * [ 1*SP credentials ]`, which of the mock's schemes it names, whether its credentials are one token68, and
 * the SHA-256 under which the verifiers look those credentials up. All of it is a function of the value
 * alone, so a connection that sends the same value again — a keep-alive client reusing its token — gets the
 * same result without the value being parsed, checked and hashed again (`lastPerConnection`).
 *
 * The verification itself is never remembered here: a token's expiry, the verified-credential caches and
 * the identity store are consulted on every request, as before.
 */
import { parseAuthorization } from './authorization-header.ts';
import { sha256 } from './digest.ts';
import { isToken68 } from './token68.ts';
import type { Scheme } from './types.ts';

// A Map, not an object literal: a scheme named "constructor" or "__proto__" must not find anything.
const SCHEMES: ReadonlyMap<string, Scheme> = new Map([
  ['bearer', 'bearer'],
  ['basic', 'basic'],
  ['apikey', 'apikey'],
]);

/** The mock's scheme of that (lower-case) name, if any. */
export function schemeNamed(name: string): Scheme | undefined {
  return SCHEMES.get(name);
}

export class PreparedAuthorization {
  #digest: string | undefined;
  #digestBytes: Buffer | undefined;

  constructor(
    /** The field value as received. */
    readonly value: string,
    /** False when the value is not `auth-scheme [ 1*SP credentials ]`. */
    readonly wellFormed: boolean,
    /** The scheme, when it is one of the mock's (RFC 9110 §11.1: compared case-insensitively). */
    readonly scheme: Scheme | undefined,
    /** The credentials, when they are one token68 (RFC 9110 §11.2); undefined when absent or not. */
    readonly token68: string | undefined,
  ) {}

  /** base64url SHA-256 of the token68 (mock/auth/digest.ts), made on first use: what the verifiers look up. */
  get digest(): string {
    this.#digest ??= sha256(this.token68 ?? '');
    return this.#digest;
  }

  /** The digest's characters as bytes, made on first use: what a constant-time comparison compares. */
  get digestBytes(): Buffer {
    this.#digestBytes ??= Buffer.from(this.digest, 'latin1');
    return this.#digestBytes;
  }
}

export function prepareAuthorization(value: string): PreparedAuthorization {
  const parsed = parseAuthorization(value);
  if (parsed === undefined) return new PreparedAuthorization(value, false, undefined, undefined);
  const { credentials } = parsed;
  return new PreparedAuthorization(
    value,
    true,
    schemeNamed(parsed.scheme),
    credentials !== undefined && isToken68(credentials) ? credentials : undefined,
  );
}

/**
 * `prepareAuthorization`, remembering the last result per connection: the same value on the same connection
 * gets the same object back. Held weakly by the connection (its socket), so the value goes when the
 * connection does; it is only ever handed back to the connection that sent it. Without a connection, every
 * call prepares afresh.
 */
export function lastPerConnection(): (
  value: string,
  connection: object | undefined,
) => PreparedAuthorization {
  const last = new WeakMap<object, PreparedAuthorization>();
  return (value, connection) => {
    if (connection === undefined) return prepareAuthorization(value);
    const known = last.get(connection);
    if (known !== undefined && known.value === value) return known;
    const prepared = prepareAuthorization(value);
    last.set(connection, prepared);
    return prepared;
  };
}
