/**
 * Loads fixtures/identities.json: who may authenticate with Basic or Apikey, with which roles and scopes.
 * Only hashes are stored (docs/design.md "Credentials"); the plaintext lives in the test profile alone.
 */
import { readFile } from 'node:fs/promises';
import { containsControlCharacter } from './basic-credentials.ts';
import { decodePasswordHash, type PasswordHash, type ScryptRecord } from './password-hash.ts';

/** One entry of identities.json. */
export interface IdentityRecord {
  /** The identity's id and its Basic user-id (RFC 7617 §2: no ":" allowed in it). */
  readonly id: string;
  readonly roles: readonly string[];
  readonly scopes: readonly string[];
  readonly basic?: { readonly scrypt: ScryptRecord };
  /** Lower-case hex SHA-256 of the API key's UTF-8 bytes. */
  readonly apikey?: { readonly sha256: string };
}

/** The whole of identities.json. */
export interface IdentitiesFile {
  readonly $comment?: string;
  readonly identities: readonly IdentityRecord[];
}

export interface StoredIdentity {
  readonly id: string;
  readonly roles: readonly string[];
  readonly scopes: readonly string[];
}

export interface IdentityStore {
  /** Basic users by NFC user-id. */
  readonly passwords: ReadonlyMap<string, { readonly identity: StoredIdentity; readonly hash: PasswordHash }>;
  /** API key owners by the hex SHA-256 of the key. */
  readonly apikeys: ReadonlyMap<string, { readonly identity: StoredIdentity; readonly digest: Buffer }>;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

function isStringArray(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function fail(where: string, what: string): never {
  throw new TypeError(`identities file: ${where}: ${what}`);
}

/** Validates the parsed JSON and indexes it; throws TypeError naming the first bad entry. */
export function buildIdentityStore(file: unknown): IdentityStore {
  const entries = (file as Partial<IdentitiesFile> | null)?.identities;
  if (!Array.isArray(entries)) fail('root', 'expected { "identities": [...] }');
  const passwords = new Map<string, { identity: StoredIdentity; hash: PasswordHash }>();
  const apikeys = new Map<string, { identity: StoredIdentity; digest: Buffer }>();
  const ids = new Set<string>();
  entries.forEach((entry: Partial<IdentityRecord>, index) => {
    const where = `identities[${index}]`;
    const { id, roles, scopes, basic, apikey } = entry ?? {};
    if (typeof id !== 'string' || id === '' || id !== id.normalize('NFC'))
      fail(where, 'id must be a non-empty NFC string');
    if (ids.has(id)) fail(where, `duplicate id "${id}"`);
    ids.add(id);
    if (!isStringArray(roles) || !isStringArray(scopes))
      fail(where, 'roles and scopes must be string arrays');
    const identity: StoredIdentity = Object.freeze({
      id,
      roles: Object.freeze([...roles]),
      scopes: Object.freeze([...scopes]),
    });
    if (basic !== undefined) {
      // RFC 7617 §2: "a user-id containing a colon character is invalid"; no CTL either.
      if (id.includes(':') || containsControlCharacter(id))
        fail(where, 'a Basic user-id must not contain ":" or control characters');
      if (typeof basic.scrypt !== 'object' || basic.scrypt === null)
        fail(where, 'basic.scrypt must be an object');
      passwords.set(id, { identity, hash: decodePasswordHash(basic.scrypt) });
    }
    if (apikey !== undefined) {
      if (typeof apikey.sha256 !== 'string' || !SHA256_HEX.test(apikey.sha256)) {
        fail(where, 'apikey.sha256 must be 64 lower-case hex digits');
      }
      if (apikeys.has(apikey.sha256)) fail(where, 'API key shared with another identity');
      apikeys.set(apikey.sha256, { identity, digest: Buffer.from(apikey.sha256, 'hex') });
    }
  });
  return { passwords, apikeys };
}

/** Reads and validates the identities file at `path`. */
export async function loadIdentityStore(path: string): Promise<IdentityStore> {
  return buildIdentityStore(JSON.parse(await readFile(path, 'utf8')));
}
