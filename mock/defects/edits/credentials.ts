/**
 * Small readers and identity edits the credential defects share (mock/defects/<layer>/*.ts): what a
 * defective server decodes from the credentials, and the identity it ends up granting.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { decodeJwt } from 'jose';
import { FIXTURES_DIR } from '../../../shared/paths.ts';
import { decodeStrictBase64 } from '../../auth/base64.ts';
import { type BasicCredentials, decodeUtf8, splitUserPass } from '../../auth/basic-credentials.ts';
import { sha256 } from '../../auth/digest.ts';
import type { IdentityStore, StoredIdentity } from '../../auth/identity-store.ts';
import type { AuthResult, Identity, Scheme } from '../../auth/types.ts';
import type { AuthenticatorContext, AuthenticatorHook, Grants, ParsedCredentials } from '../unit/define.ts';

export const ALL_SCHEMES: readonly Scheme[] = ['bearer', 'basic', 'apikey'];

/** The Basic user-id and password (RFC 7617 §2), or undefined when they do not decode. */
export function basicCredentials(parsed: ParsedCredentials): BasicCredentials | undefined {
  if (parsed?.scheme !== 'basic' || parsed.credentials === undefined) return undefined;
  const bytes = decodeStrictBase64(parsed.credentials);
  const text = bytes && decodeUtf8(bytes);
  return text === undefined ? undefined : splitUserPass(text);
}

/** The JWT claims of a Bearer credential, unverified; {} when it does not decode. */
export function unverifiedClaims(parsed: ParsedCredentials): Record<string, unknown> {
  try {
    return parsed?.credentials === undefined ? {} : decodeJwt(parsed.credentials);
  } catch {
    return {};
  }
}

/** SHA-256 in hex, the form the identity store keys API keys by. */
export function hexSha256(value: string): string {
  return Buffer.from(sha256(value), 'base64url').toString('hex');
}

export function union(a: readonly string[], b: readonly string[]): readonly string[] {
  return Object.freeze([...new Set([...a, ...b])]);
}

/** The identity with every role and scope the policy asks for. */
export function elevated(identity: Identity, grants: Grants): Identity {
  return Object.freeze({
    ...identity,
    roles: union(identity.roles, grants.roles),
    scopes: union(identity.scopes, grants.scopes),
  });
}

/** The accepted result for `identity`. */
export function accepted(identity: Identity): AuthResult {
  return { ok: true, identity };
}

/** `auth-scheme 1*SP` (RFC 9110 §11.4): the scheme as received (case kept) and the spaces after it. */
export const SCHEME_AND_SPACES = /^[ \t]*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)( +)/;

/**
 * The plain API keys a defective comparison needs (the identity store keeps only their SHA-256): the demo
 * keys the fixtures generator writes into the bundled profile (fixtures/mock.profile.json), each kept only
 * when the store knows its hash — a defect never invents an identity.
 */
export function plainApikeys(
  store: IdentityStore,
): { readonly key: string; readonly owner: StoredIdentity }[] {
  const profile = JSON.parse(readFileSync(resolve(FIXTURES_DIR, 'mock.profile.json'), 'utf8')) as {
    identities?: Record<string, { apikey?: unknown }>;
  };
  const out: { key: string; owner: StoredIdentity }[] = [];
  for (const entry of Object.values(profile.identities ?? {})) {
    if (typeof entry.apikey !== 'string') continue;
    const owner = store.apikeys.get(hexSha256(entry.apikey));
    if (owner !== undefined) out.push({ key: entry.apikey, owner: owner.identity });
  }
  return out;
}

/** The identity an API key comparison matched, as the authenticator grants it. */
export function apikeyIdentity(owner: StoredIdentity): Identity {
  return Object.freeze({ ...owner, scheme: 'apikey' as const });
}

/**
 * The authenticator hook of a defective API-key comparison: a key the real authenticator refused as unknown
 * is accepted as the first bundled key `matches` says it is (prefix, masked middle, case, last character…).
 */
export function looseApikeyRescue(
  matches: (stored: string, given: string) => boolean,
): (context: AuthenticatorContext) => Promise<AuthenticatorHook> {
  return async ({ identities }) => {
    const keys = plainApikeys(await identities());
    return {
      rescue: (parsed, failure) => {
        const given = parsed?.credentials;
        if (failure.code !== 'apikey_unknown' || !given) return undefined;
        const match = keys.find(({ key }) => matches(key, given));
        return match && apikeyIdentity(match.owner);
      },
    };
  };
}

/** The Basic identity of a stored user. */
export function basicIdentity(owner: StoredIdentity): Identity {
  return Object.freeze({ ...owner, scheme: 'basic' as const });
}

/**
 * The authenticator hook of a defective password check: a known Basic user-id refused for its password is
 * accepted as that user when `accepts` says the password will do (any, empty, another user's…).
 */
export function wrongPasswordRescue(
  accepts: (
    password: string,
    users: IdentityStore['passwords'],
    user: NonNullable<ReturnType<IdentityStore['passwords']['get']>>,
  ) => boolean | Promise<boolean>,
): (context: AuthenticatorContext) => Promise<AuthenticatorHook> {
  return async ({ identities }) => {
    const users = (await identities()).passwords;
    return {
      rescue: async (parsed, failure) => {
        if (failure.code !== 'basic_wrong_password') return undefined;
        const credentials = basicCredentials(parsed);
        const user = credentials && users.get(credentials.userId.normalize('NFC'));
        if (credentials === undefined || user === undefined) return undefined;
        return (await accepts(credentials.password, users, user)) ? basicIdentity(user.identity) : undefined;
      },
    };
  };
}
