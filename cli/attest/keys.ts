/**
 * The vendor's key: Ed25519 or ECDSA P-256, as PEM (PKCS#8 / SEC1 private, SPKI public, or an X.509
 * certificate for verifying) or as a JWK (RFC 7517; private when it has `d`), read from a file or from an
 * environment variable (`env:NAME`, as the profile's `{ "env": … }` secrets). Messages name the file or the
 * variable, never a byte of the key.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { keyIdOf } from './key-id.ts';
import { KEY_FORMS } from './key-material.ts';
import type { KeySource } from './key-source.ts';

export type KeyAlgorithm = 'Ed25519' | 'ECDSA P-256';

export interface PublicKeyInfo {
  readonly publicKey: KeyObject;
  readonly algorithm: KeyAlgorithm;
  /** RFC 7638 SHA-256 thumbprint of the public key, base64url. */
  readonly keyId: string;
}

export interface SigningKey extends PublicKeyInfo {
  readonly privateKey: KeyObject;
}

/** A key that cannot be used; `message` is one line naming where the key came from and what is wrong. */
export class KeyError extends Error {
  readonly code = 'ERR_GATECHECK_KEY';
  constructor(message: string) {
    super(message);
    this.name = 'KeyError';
  }
}

export async function readKeyText(source: KeySource, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if ('env' in source) {
    const value = env[source.env];
    if (value === undefined) throw new KeyError(`environment variable ${source.env} is not set`);
    if (value.trim() === '') throw new KeyError(`environment variable ${source.env} is empty`);
    return value;
  }
  try {
    return await readFile(source.file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    // A name that is not a file may be a key given inline in a form not recognised (a raw seed): not repeated.
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG') {
      const given = source.given ?? source.file.length;
      throw new KeyError(
        `no file by the name given (${given} characters, not repeated here in case it is a key); give ${KEY_FORMS}`,
      );
    }
    throw new KeyError(`cannot read ${source.file} (${code})`);
  }
}

type Parsed = { readonly kind: 'private' | 'public'; readonly key: KeyObject };

function parseJwk(text: string, where: string): Parsed {
  let jwk: unknown;
  try {
    jwk = JSON.parse(text);
  } catch {
    throw new KeyError(`${where} is neither a PEM key nor a JSON Web Key (it does not parse as JSON)`);
  }
  if (jwk === null || typeof jwk !== 'object' || Array.isArray(jwk)) {
    throw new KeyError(`${where} is not a JSON Web Key (an object with "kty")`);
  }
  const record = jwk as Record<string, unknown>;
  if (Array.isArray(record.keys)) throw new KeyError(`${where} is a JWK Set; give one key`);
  if (typeof record.kty !== 'string') throw new KeyError(`${where} is not a JSON Web Key (no "kty")`);
  if (record.kty === 'oct') {
    throw new KeyError(
      `${where} is a secret key (kty "oct"); gatecheck signs with Ed25519 or ECDSA P-256 keys`,
    );
  }
  try {
    return 'd' in record
      ? { kind: 'private', key: createPrivateKey({ key: record as never, format: 'jwk' }) }
      : { kind: 'public', key: createPublicKey({ key: record as never, format: 'jwk' }) };
  } catch {
    throw new KeyError(`${where} is not a usable JSON Web Key (kty "${record.kty}")`);
  }
}

function parsePem(text: string, where: string): Parsed {
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----/.test(text)) {
    throw new KeyError(
      `${where} is an encrypted private key; give it unencrypted (openssl pkey -in <file> -out <file>) and keep it secret`,
    );
  }
  try {
    return /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)
      ? { kind: 'private', key: createPrivateKey(text) }
      : { kind: 'public', key: createPublicKey(text) };
  } catch {
    throw new KeyError(`${where} is not a usable PEM key`);
  }
}

function parseKey(text: string, where: string): Parsed {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) return parseJwk(trimmed, where);
  if (trimmed.includes('-----BEGIN ')) return parsePem(trimmed, where);
  throw new KeyError(`${where} is neither a PEM key ("-----BEGIN …") nor a JSON Web Key`);
}

const KEY_TYPE_NAMES: Readonly<Record<string, string>> = {
  rsa: 'an RSA key',
  'rsa-pss': 'an RSA-PSS key',
  dsa: 'a DSA key',
  dh: 'a Diffie-Hellman key',
  ed448: 'an Ed448 key',
  x25519: 'an X25519 key',
  x448: 'an X448 key',
};

/** Ed25519, or ECDSA over P-256 (prime256v1); anything else is named in the error. */
function algorithmOf(key: KeyObject, where: string): KeyAlgorithm {
  if (key.asymmetricKeyType === 'ed25519') return 'Ed25519';
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (key.asymmetricKeyType === 'ec' && curve === 'prime256v1') return 'ECDSA P-256';
  const type = key.asymmetricKeyType ?? 'unknown';
  const what =
    type === 'ec' ? `an EC key on ${curve ?? 'an unknown curve'}` : (KEY_TYPE_NAMES[type] ?? `a ${type} key`);
  throw new KeyError(`${where} is ${what}; gatecheck signs with Ed25519 or ECDSA P-256 keys`);
}

/** The private key to sign with; a public key is refused (it cannot sign). */
export async function signingKeyFrom(text: string, where: string): Promise<SigningKey> {
  const parsed = parseKey(text, where);
  if (parsed.kind !== 'private') {
    throw new KeyError(
      `${where} holds a public key; signing needs the private key (gatecheck keygen writes both)`,
    );
  }
  const publicKey = createPublicKey(parsed.key);
  const algorithm = algorithmOf(publicKey, where);
  return { privateKey: parsed.key, publicKey, algorithm, keyId: await keyIdOf(publicKey) };
}

/** The public key to verify with; given a private key, its public half is used. */
export async function publicKeyFrom(text: string, where: string): Promise<PublicKeyInfo> {
  const parsed = parseKey(text, where);
  const publicKey = parsed.kind === 'private' ? createPublicKey(parsed.key) : parsed.key;
  const algorithm = algorithmOf(publicKey, where);
  return { publicKey, algorithm, keyId: await keyIdOf(publicKey) };
}
