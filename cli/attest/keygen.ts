/**
 * `gatecheck keygen`: a key pair for a vendor who has none. Ed25519 by default (RFC 8032: small keys,
 * deterministic signatures), ECDSA P-256 on request. The private key is written with mode 0600 and never
 * printed; the public key is what the vendor publishes for `gatecheck verify`.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmod, open } from 'node:fs/promises';
import { keyIdOf } from './key-id.ts';
import type { KeyAlgorithm } from './keys.ts';

export type KeyFormat = 'pem' | 'jwk';

export interface KeygenRequest {
  readonly algorithm: KeyAlgorithm;
  readonly format: KeyFormat;
  readonly privateFile: string;
  readonly publicFile: string;
  /** Replace existing files; without it an existing file is an error (EEXIST), never overwritten. */
  readonly force: boolean;
}

function pair(algorithm: KeyAlgorithm): { privateKey: KeyObject; publicKey: KeyObject } {
  return algorithm === 'Ed25519'
    ? generateKeyPairSync('ed25519')
    : generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
}

function serialize(key: KeyObject, format: KeyFormat): string {
  if (format === 'jwk') return `${JSON.stringify(key.export({ format: 'jwk' }), null, 2)}\n`;
  return key.type === 'private'
    ? String(key.export({ format: 'pem', type: 'pkcs8' }))
    : String(key.export({ format: 'pem', type: 'spki' }));
}

async function writeExclusive(file: string, text: string, mode: number, force: boolean): Promise<void> {
  const handle = await open(file, force ? 'w' : 'wx', mode);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
  // open()'s mode applies only to a file it creates (and through the umask): set it on a replaced one too.
  await chmod(file, mode);
}

/** Writes both files; resolves to the key id. Throws the filesystem's error (EEXIST, EACCES…) unchanged. */
export async function generateKeyFiles(request: KeygenRequest): Promise<string> {
  const { privateKey, publicKey } = pair(request.algorithm);
  await writeExclusive(request.privateFile, serialize(privateKey, request.format), 0o600, request.force);
  await writeExclusive(request.publicFile, serialize(publicKey, request.format), 0o644, request.force);
  return keyIdOf(publicKey);
}
