/**
 * The mock's OAuth 2.0 clients (RFC 6749 §2): id, the identity a client-credentials token speaks for, the
 * grants it may use, and its secret stored as an scrypt hash like the users' passwords — never in plaintext.
 */

import { readFile } from 'node:fs/promises';
import {
  decodePasswordHash,
  dummyPasswordHash,
  type PasswordHash,
  type ScryptRecord,
  verifyPassword,
} from '../auth/password-hash.ts';

export type GrantType = 'client_credentials' | 'password';
export const GRANT_TYPES: readonly GrantType[] = ['client_credentials', 'password'];

export interface OAuthClient {
  readonly clientId: string;
  /** Identity id (fixtures/identities.json) a client-credentials token is issued for. */
  readonly identity: string;
  readonly grants: readonly GrantType[];
  readonly secret: PasswordHash;
}

export interface ClientRegistry {
  /** The client when `secret` is its secret; undefined otherwise, in the same time for unknown ids. */
  authenticate(clientId: string, secret: string): Promise<OAuthClient | undefined>;
  readonly clients: readonly OAuthClient[];
}

interface ClientRecord {
  clientId?: unknown;
  identity?: unknown;
  grants?: unknown;
  secret?: { scrypt?: ScryptRecord };
}

/** Throws TypeError naming the first bad entry. */
export async function loadClientRegistry(path: string): Promise<ClientRegistry> {
  const file = JSON.parse(await readFile(path, 'utf8')) as { clients?: ClientRecord[] };
  if (!Array.isArray(file.clients)) throw new TypeError(`${path}: expected { "clients": [...] }`);
  const clients = file.clients.map((entry, index): OAuthClient => {
    const where = `${path}: clients[${index}]`;
    const { clientId, identity, grants, secret } = entry;
    if (typeof clientId !== 'string' || clientId === '')
      throw new TypeError(`${where}.clientId: expected a string`);
    if (typeof identity !== 'string') throw new TypeError(`${where}.identity: expected an identity id`);
    if (!Array.isArray(grants) || !grants.every((g) => GRANT_TYPES.includes(g as GrantType)))
      throw new TypeError(`${where}.grants: expected a list of ${GRANT_TYPES.join(', ')}`);
    if (secret?.scrypt === undefined) throw new TypeError(`${where}.secret: expected { "scrypt": {...} }`);
    return { clientId, identity, grants: grants as GrantType[], secret: decodePasswordHash(secret.scrypt) };
  });
  const byId = new Map(clients.map((c) => [c.clientId, c]));
  const dummy = await dummyPasswordHash();
  return {
    clients,
    async authenticate(clientId, secret) {
      const client = byId.get(clientId);
      // An unknown client costs the same derivation as a known one: the answer time does not tell ids apart.
      const ok = await verifyPassword(secret, client?.secret ?? dummy);
      return ok && client !== undefined ? client : undefined;
    },
  };
}
