/**
 * What in a profile is a credential: the one predicate the report's scrubber, the statement's redaction
 * (cli/attest/redact-profile.ts) and the suite's own redaction (specs/lib/secrets.ts) all read
 * (docs/design.md "no credential printed anywhere"). tests/report/secrets-predicate.test.ts walks
 * fixtures/schemas/profile.schema.json and fails on any field that takes a credential this does not cover.
 *
 * Two kinds:
 *   secret     the value is the credential (a token, a password, a key): redacted where it sits, and searched
 *              for and replaced in every text the suite writes;
 *   sensitive  the value names who authenticates (a Basic or OAuth username, an OAuth client id, the client
 *              key's file): redacted where it sits, not searched for in free text (`admin` would blank every
 *              "admin endpoint"), but its pair with the secret beside it is (RFC 7617 §2 user-pass).
 * The walk is over the raw JSON, so a profile the loader would refuse still has its credentials found.
 */

import { isRecord } from './is-record.ts';

export type CredentialKind = 'secret' | 'sensitive';

type Json = Record<string, unknown>;

/** Keys whose value is a credential wherever they sit (identities, OAuth grants, JWT signing material). */
const SECRET_KEYS: ReadonlySet<string> = new Set([
  'bearer',
  'apikey',
  'apiKey',
  'password',
  'secret',
  'clientSecret',
  'privateJwk',
]);

/** Keys that name who authenticates: RFC 7617 §2 user-id, RFC 6749 §2.2 client identifier. */
const SENSITIVE_KEYS: ReadonlySet<string> = new Set(['username', 'clientId']);

/**
 * RFC 7518 §6.2.2 (EC `d`), §6.3.2 (RSA `d`, `p`, `q`, `dp`, `dq`, `qi`, `oth`), §6.4.1 (oct `k`); RFC 8037 §2
 * (OKP `d`): the private members of a JWK.
 */
export const JWK_PRIVATE_MEMBERS: ReadonlySet<string> = new Set([
  'd',
  'p',
  'q',
  'dp',
  'dq',
  'qi',
  'oth',
  'k',
]);

/**
 * Header names whose values are credentials wherever they appear (request or response): the one list the
 * report, the evidence, the curl replay line and the statement redact by. RFC 9110 §11.6.2/§11.7.2
 * (Authorization, Proxy-Authorization), RFC 6265 §4 (Cookie, Set-Cookie), and the common `X-Api-Key`.
 */
export const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
]);

/** Case-insensitive (RFC 9110 §5.1: field names are case-insensitive). */
export function isSecretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase());
}

/** `{ "env": "NAME" }`: a credential read from the environment (docs/profile.md "Secrets from the environment"). */
export function isEnvReference(value: unknown): value is { env: string } {
  return isRecord(value) && Object.keys(value).length === 1 && typeof value.env === 'string';
}

/** A JSON Web Key (RFC 7517 §4.1: `kty` is required). */
function isJwk(value: Json): boolean {
  return typeof value.kty === 'string';
}

/**
 * Whether the field at `path` (the keys from the profile's root, e.g. ['fault', 'headers', 'X-Fault']) holds a
 * credential, and of which kind. `parent` is the object the field's key sits in.
 */
export function credentialKind(path: readonly string[], parent: Json): CredentialKind | undefined {
  const key = path.at(-1) ?? '';
  const above = path.at(-2);
  if (SECRET_KEYS.has(key)) return 'secret';
  if (SENSITIVE_KEYS.has(key)) return 'sensitive';
  if (isJwk(parent) && JWK_PRIVATE_MEMBERS.has(key)) return 'secret';
  // The client certificate's private key (a PEM file's path, or the PEM itself).
  if (path.length === 2 && path[0] === 'tls' && key === 'key') return 'sensitive';
  // A string-valued `token` is a credential; an identity's `token` object says how to get one.
  if (key === 'token' && typeof parent[key] === 'string') return 'secret';
  // The login call's body fields (docs/profile.md "token.login"): what the API takes to hand out a token.
  if ((above === 'json' || above === 'form') && path.at(-3) === 'login') return 'secret';
  // The fault trigger's headers (a value that provokes a 500 is as good as a key), and any header that authenticates.
  if ((above === 'headers' || above === 'unblockedHeaders') && (path[0] === 'fault' || isSecretHeader(key)))
    return 'secret';
  return undefined;
}

/** The pairs Basic-style authentication joins as `id:secret` (RFC 7617 §2; RFC 6749 §2.3.1 client_secret_basic). */
const PAIRS = [
  ['username', 'password'],
  ['clientId', 'clientSecret'],
] as const;

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function stringLeaves(value: unknown, out: Set<string>): void {
  if (typeof value === 'string') {
    if (value.length > 0) out.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) stringLeaves(item, out);
  } else if (isRecord(value)) {
    for (const child of Object.values(value)) stringLeaves(child, out);
  }
}

/**
 * Every secret string in a profile (raw JSON or the loaded profile), plus the `id:secret` pairs Basic sends
 * base64-encoded. A credential written `{ "env": "NAME" }` is looked up in `env`; any referenced variable is a
 * secret wherever it sits, since only credentials are meant to come from it. Longest first, so a secret
 * that contains another is replaced whole before its part is.
 */
export function profileSecrets(profile: unknown, env: NodeJS.ProcessEnv = process.env): string[] {
  const found = new Set<string>();
  const fromEnv = (value: unknown): string | undefined =>
    isRecord(value) && typeof value.env === 'string' ? env[value.env] || undefined : undefined;
  const literalOrEnv = (value: unknown): string | undefined =>
    typeof value === 'string' ? value : fromEnv(value);
  const walk = (value: unknown, path: readonly string[]): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item, path);
      return;
    }
    if (!isRecord(value)) return;
    for (const [key, child] of Object.entries(value)) {
      const at = [...path, key];
      const kind = credentialKind(at, value);
      const referenced = fromEnv(child);
      if (referenced !== undefined) {
        found.add(referenced);
        // A JWK from the environment: its private members are secrets too, as a literal one's are.
        if (key === 'privateJwk') walk(safeJson(referenced), at);
      } else if (isEnvReference(child)) {
        // A variable that is not set: nothing to hide, and its name is what the error naming it must show.
      } else if (typeof child === 'string') {
        if (kind === 'secret' && child.length > 0) found.add(child);
      } else if (kind === 'secret' && !(isRecord(child) && isJwk(child))) {
        // A secret with structure (a JWK's `oth`, RFC 7518 §6.3.2.7): every string in it.
        stringLeaves(child, found);
      } else {
        walk(child, at);
      }
    }
    for (const [id, secret] of PAIRS) {
      const left = literalOrEnv(value[id]);
      const right = literalOrEnv(value[secret]);
      if (left !== undefined && right !== undefined) found.add(`${left}:${right}`);
    }
  };
  walk(profile, []);
  return [...found].sort((a, b) => b.length - a.length);
}
