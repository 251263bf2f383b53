/**
 * `--tls`: a certificate generated at start-up (selfsigned) for the loopback names, acting as its own CA
 * (basicConstraints cA, RFC 5280 §4.2.1.9) so a client can trust it with the CA file alone — the way a staging
 * deployment with a company CA is trusted (`--ca-cert`, profile `tls.ca`). The CA file is written to a new
 * temporary folder (removed when the mock closes, or with its process) and its path printed; the private key
 * stays in memory.
 */

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { tempFolder } from '../../shared/temp-folder.ts';

export interface ServerCertificate {
  readonly cert: string;
  readonly key: string;
  /** The PEM file a client trusts (the certificate itself). */
  readonly caPath: string;
  /** Deletes the CA file's folder (the mock's close); the process's exit does it otherwise. */
  remove(): Promise<void>;
}

export async function generateServerCertificate(hosts: readonly string[] = []): Promise<ServerCertificate> {
  const names = new Set(['localhost', ...hosts.filter((h) => !/^[\d.:]+$/.test(h))]);
  const ips = new Set(['127.0.0.1', '::1', ...hosts.filter((h) => /^[\d.:]+$/.test(h))]);
  const pems = await generate([{ name: 'commonName', value: 'gatecheck mock (test only)' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    // A day is longer than any run or development session; a fresh one is made at every start.
    notAfterDate: new Date(Date.now() + 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          ...[...names].map((value) => ({ type: 2 as const, value })),
          ...[...ips].map((ip) => ({ type: 7 as const, ip })),
        ],
      },
    ],
  });
  const dir = await tempFolder('gatecheck-mock-tls-');
  const caPath = join(dir.path, 'ca.pem');
  await writeFile(caPath, pems.cert, { mode: 0o644 });
  return { cert: pems.cert, key: pems.private, caPath, remove: dir.remove };
}
