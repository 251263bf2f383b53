/**
 * The vendor's key: Ed25519 or ECDSA P-256, as PEM (PKCS#8 / SEC1 private, SPKI public) or as a JWK (RFC 7517;
 * private when it has `d`), read from a file or from an environment variable (`env:NAME`, as the profile's
 * `{ "env": … }` secrets). Messages name the file or the variable, never a byte of the key.
 *
 * Read strictly (issue #42): one key per file (a PUBLIC KEY followed by another PRIVATE KEY would verify with
 * the second); no X.509 certificate (gatecheck checks no chain, validity or key usage, so it takes the bare
 * public key it would have used); a JWK's `use`, `key_ops` and `alg` must allow what it is used for with its
 * algorithm (RFC 7517 §4.2, §4.3, §4.4; RFC 8037 §3.1 "EdDSA", RFC 7518 §3.4 "ES256"); no duplicate member.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { keyIdOf } from './key-id.ts';
import { KEY_FORMS } from './key-material.ts';
import type { KeySource } from './key-source.ts';
import { parseStrictJson } from './strict-json.ts';

export type KeyAlgorithm = 'Ed25519' | 'ECDSA P-256';

export interface PublicKeyInfo {
  readonly publicKey: KeyObject;
  readonly algorithm: KeyAlgorithm;
  /** RFC 7638 SHA-256 thumbprint of the public key, base64url. */
  readonly keyId: string;
  /** Given a private key, verify uses its public half (and says so). */
  readonly fromPrivateKey?: boolean;
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

type Purpose = 'sign' | 'verify';

type Parsed = {
  readonly kind: 'private' | 'public';
  readonly key: KeyObject;
  /** A JWK's `alg`, checked against the key's algorithm once that is known. */
  readonly alg?: unknown;
};

/** RFC 7517 §4.2 `use` and §4.3 `key_ops`: absent, or allowing `purpose` (a private key signs). */
function checkJwkUse(
  record: Record<string, unknown>,
  purpose: Purpose,
  kind: Parsed['kind'],
  where: string,
): void {
  if (record.use !== undefined && record.use !== 'sig')
    throw new KeyError(
      `${where} is a JWK with "use" ${JSON.stringify(record.use)}; a signature key has "use": "sig"`,
    );
  if (record.key_ops === undefined) return;
  // Verifying with a private JWK uses its public half: its own "sign" is the matching operation.
  const allowed = purpose === 'sign' ? ['sign'] : kind === 'private' ? ['verify', 'sign'] : ['verify'];
  const ops = Array.isArray(record.key_ops) ? record.key_ops : [];
  if (!ops.some((op) => allowed.includes(op as string)))
    throw new KeyError(
      `${where} is a JWK whose "key_ops" ${JSON.stringify(record.key_ops)} do not include "${allowed[0]}"`,
    );
}

function parseJwk(text: string, where: string, purpose: Purpose): Parsed {
  const parsed = parseStrictJson(text);
  if (!parsed.ok) {
    throw new KeyError(
      parsed.cause === 'is not JSON'
        ? `${where} is neither a PEM key nor a JSON Web Key (it does not parse as JSON)`
        : `${where} is a JWK that ${parsed.cause}`,
    );
  }
  const jwk = parsed.value;
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
  const kind = 'd' in record ? 'private' : 'public';
  checkJwkUse(record, purpose, kind, where);
  try {
    return kind === 'private'
      ? { kind, key: createPrivateKey({ key: record as never, format: 'jwk' }), alg: record.alg }
      : { kind, key: createPublicKey({ key: record as never, format: 'jwk' }), alg: record.alg };
  } catch {
    throw new KeyError(`${where} is not a usable JSON Web Key (kty ${JSON.stringify(record.kty)})`);
  }
}

function parsePem(text: string, where: string): Parsed {
  const blocks = [...text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----/g)].map((m) => m[1] ?? '');
  if (blocks.some((label) => label.includes('CERTIFICATE'))) {
    throw new KeyError(
      `${where} is an X.509 certificate; gatecheck checks no certificate's validity, issuer or key use, so give the bare public key you trust (openssl x509 -pubkey -noout -in <certificate>)`,
    );
  }
  if (blocks.length > 1)
    throw new KeyError(
      `${where} holds ${blocks.length} keys (${blocks.join(', ')}); give a file with one key`,
    );
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

function parseKey(text: string, where: string, purpose: Purpose): Parsed {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) return parseJwk(trimmed, where, purpose);
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

/** RFC 7518 §3.1 / RFC 8037 §3.1 names, and RFC 9864's fully specified "Ed25519". */
const JWS_ALGORITHMS: Readonly<Record<KeyAlgorithm, readonly string[]>> = {
  Ed25519: ['EdDSA', 'Ed25519'],
  'ECDSA P-256': ['ES256'],
};

function checkAlg(parsed: Parsed, algorithm: KeyAlgorithm, where: string): void {
  if (parsed.alg === undefined || JWS_ALGORITHMS[algorithm].includes(parsed.alg as string)) return;
  throw new KeyError(
    `${where} is a JWK with "alg" ${JSON.stringify(parsed.alg)}, not one of ${JWS_ALGORITHMS[algorithm].map((a) => `"${a}"`).join(', ')} for its ${algorithm} key`,
  );
}

/** The private key to sign with; a public key is refused (it cannot sign). */
export async function signingKeyFrom(text: string, where: string): Promise<SigningKey> {
  const parsed = parseKey(text, where, 'sign');
  if (parsed.kind !== 'private') {
    throw new KeyError(
      `${where} holds a public key; signing needs the private key (gatecheck keygen writes both)`,
    );
  }
  const publicKey = createPublicKey(parsed.key);
  const algorithm = algorithmOf(publicKey, where);
  checkAlg(parsed, algorithm, where);
  return { privateKey: parsed.key, publicKey, algorithm, keyId: await keyIdOf(publicKey) };
}

/** The public key to verify with; given a private key, its public half is used. */
export async function publicKeyFrom(text: string, where: string): Promise<PublicKeyInfo> {
  const parsed = parseKey(text, where, 'verify');
  const publicKey = parsed.kind === 'private' ? createPublicKey(parsed.key) : parsed.key;
  const algorithm = algorithmOf(publicKey, where);
  checkAlg(parsed, algorithm, where);
  return {
    publicKey,
    algorithm,
    keyId: await keyIdOf(publicKey),
    ...(parsed.kind === 'private' ? { fromPrivateKey: true } : {}),
  };
}
