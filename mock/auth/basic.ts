/**
 * The Basic scheme (RFC 7617): `Authorization: Basic base64(user-id ":" password)`, checked against the
 * scrypt hashes in the identity store.
 */
import { decodeStrictBase64 } from './base64.ts';
import { decodeUtf8, hasControlCharacter, splitUserPass } from './basic-credentials.ts';
import { type AuthFailure, authFailure } from './failures.ts';
import type { IdentityStore } from './identity-store.ts';
import { type PasswordHash, verifyPassword } from './password-hash.ts';
import type { AuthResult, Identity } from './types.ts';
import { createVerifiedCache } from './verified-cache.ts';

export interface BasicVerifierOptions {
  readonly store: IdentityStore;
  /** Compared against when the user-id is unknown, so timing does not tell which users exist. */
  readonly dummyHash: PasswordHash;
  readonly cacheSize: number;
  /** The scrypt comparison (the slow path); tests wrap it to count derivations and see which hash ran. */
  readonly verify?: (password: string, hash: PasswordHash) => Promise<boolean>;
}

/**
 * Verifies the token68 after `Basic ` (already checked to be token68): at once for a credential checked
 * before, a promise when its password must be derived. `digest`: the token68's SHA-256, which the
 * authenticator has made (mock/auth/prepared.ts): the key of both caches below.
 */
export type BasicVerifier = (token68: string, digest: string) => AuthResult | Promise<AuthResult>;

const notBase64 = authFailure(
  'malformed',
  'Basic credentials are not base64 (RFC 7617 §2, RFC 4648 §4)',
  'basic',
);
const notUtf8 = authFailure('malformed', 'Basic credentials are not valid UTF-8 (RFC 7617 §2.1)', 'basic');
const noColon = authFailure(
  'malformed',
  'Basic credentials have no ":" between user-id and password (RFC 7617 §2)',
  'basic',
);
const controlCharacter = authFailure(
  'malformed',
  'Basic user-id or password contains a control character (RFC 7617 §2)',
  'basic',
);
// One reason for both codes: the client must not learn whether the user exists (the journal keeps the code).
const BAD_LOGIN = 'user name or password is not valid';
const unknownUser = authFailure('basic_unknown_user', BAD_LOGIN, 'basic');
const wrongPassword = authFailure('basic_wrong_password', BAD_LOGIN, 'basic');

export function createBasicVerifier(options: BasicVerifierOptions): BasicVerifier {
  const { store, dummyHash, verify = verifyPassword } = options;
  // Keyed by SHA-256 of the exact token68, so a hit skips base64, UTF-8 and scrypt alike.
  const verified = createVerifiedCache<Identity>(options.cacheSize);
  // Failures too, in an LRU of the same bound: the store does not change while the mock runs, so a repeated
  // wrong credential (a misconfigured client, a rate-limit burst) need not pay scrypt again.
  const refused = createVerifiedCache<AuthFailure>(options.cacheSize);
  // Concurrent first uses of one credential share a single derivation.
  const inFlight = new Map<string, Promise<AuthResult>>();

  async function check(token68: string, key: string): Promise<AuthResult> {
    const bytes = decodeStrictBase64(token68);
    if (bytes === undefined) return notBase64;
    const userPass = decodeUtf8(bytes);
    if (userPass === undefined) return notUtf8;
    const credentials = splitUserPass(userPass);
    if (credentials === undefined) return noColon;
    if (hasControlCharacter(credentials)) return controlCharacter;

    // RFC 7617 §2.1 / RFC 8265 §3.3 (UsernameCasePreserved): compare user-ids in NFC.
    const user = store.passwords.get(credentials.userId.normalize('NFC'));
    // Derive even for an unknown user: the response time must not reveal which user-ids exist.
    const matches = await verify(credentials.password, user?.hash ?? dummyHash);
    if (user === undefined || !matches) {
      const failure = user === undefined ? unknownUser : wrongPassword;
      refused.set(key, failure);
      return failure;
    }
    const identity: Identity = Object.freeze({ ...user.identity, scheme: 'basic' });
    verified.set(key, identity);
    return { ok: true, identity };
  }

  return (token68, key) => {
    const identity = verified.get(key);
    if (identity !== undefined) return { ok: true, identity };
    const failure = refused.get(key);
    if (failure !== undefined) return failure;
    let pending = inFlight.get(key);
    if (pending === undefined) {
      pending = check(token68, key).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return pending;
  };
}
