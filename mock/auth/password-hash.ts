/**
 * scrypt password hashes (RFC 7914) as stored in fixtures/identities.json, shared by the Basic verifier and
 * scripts/generate-fixtures.ts so both derive keys the same way.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  readonly N: number;
  readonly r: number;
  readonly p: number;
  /** Derived key length in bytes. */
  readonly keyLength: number;
}

/** The JSON form: parameters next to the per-user salt and the derived key, both base64. */
export interface ScryptRecord extends ScryptParams {
  readonly salt: string;
  readonly hash: string;
}

/** A record decoded once at load time, so verification does no base64 work. */
export interface PasswordHash {
  readonly params: ScryptParams;
  readonly salt: Buffer;
  readonly hash: Buffer;
}

/**
 * Cost of the fixture hashes. Deliberately low (~1–4 ms per check): these are test-only credentials whose
 * plaintext ships in fixtures/mock.profile.json, and every Basic credential the suite fuzzes that is
 * well-formed but unknown costs one derivation. A real deployment would use N ≥ 2^17 (OWASP Password Storage
 * Cheat Sheet); the parameters live in each record, so stronger hashes need no code change.
 */
export const FIXTURE_SCRYPT_PARAMS: ScryptParams = Object.freeze({ N: 1024, r: 8, p: 1, keyLength: 32 });

/*
 * RFC 7617 §2.1 with charset="UTF-8": the password follows the OpaqueString profile of RFC 8265 §4.2, whose
 * normalization rule is NFC. Normalizing both when hashing and when verifying lets a client that sends the
 * decomposed form of "ä" still match.
 */
function normalize(password: string): string {
  return password.normalize('NFC');
}

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const { N, r, p, keyLength } = params;
  // scrypt needs 128·N·r bytes; Node's default cap (32 MiB) would refuse large N, so allow twice that.
  const maxmem = 256 * N * r;
  return new Promise((resolve, reject) => {
    scrypt(normalize(password), salt, keyLength, { N, r, p, maxmem }, (error, key) =>
      error === null ? resolve(key) : reject(error),
    );
  });
}

/** Hashes `password` with a fresh 16-byte salt. */
export async function hashPassword(
  password: string,
  params: ScryptParams = FIXTURE_SCRYPT_PARAMS,
): Promise<ScryptRecord> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, params);
  return { ...params, salt: salt.toString('base64'), hash: hash.toString('base64') };
}

/** Decodes a stored record; throws TypeError when it is not a usable scrypt record. */
export function decodePasswordHash(record: ScryptRecord): PasswordHash {
  const { N, r, p, keyLength } = record;
  const isPowerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0;
  if (!isPowerOfTwo || !Number.isInteger(r) || r < 1 || !Number.isInteger(p) || p < 1) {
    throw new TypeError('scrypt parameters must be N = a power of two > 1, r ≥ 1, p ≥ 1');
  }
  const salt = Buffer.from(record.salt, 'base64');
  const hash = Buffer.from(record.hash, 'base64');
  if (salt.length < 8 || hash.length !== keyLength || keyLength < 16) {
    throw new TypeError('scrypt record needs a salt of ≥ 8 bytes and a hash of keyLength (≥ 16) bytes');
  }
  return { params: { N, r, p, keyLength }, salt, hash };
}

/** True when `password` derives `stored.hash`; the comparison takes the same time wherever the bytes differ. */
export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const derived = await derive(password, stored.salt, stored.params);
  return timingSafeEqual(derived, stored.hash);
}

/** A hash no password is known for, so an unknown user costs the same derivation as a known one. */
export async function dummyPasswordHash(params: ScryptParams = FIXTURE_SCRYPT_PARAMS): Promise<PasswordHash> {
  return decodePasswordHash(await hashPassword(randomBytes(32).toString('base64'), params));
}
