/**
 * `--tls`: a certificate generated at start-up (selfsigned) for the loopback names, acting as its own CA
 * (basicConstraints cA, RFC 5280 §4.2.1.9) so a client can trust it with the CA file alone — the way a staging
 * deployment with a company CA is trusted (`--ca-cert`, profile `tls.ca`). The CA file is written to a new
 * temporary folder and its path printed; the private key stays in memory.
 */

import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface ServerCertificate {
  readonly cert: string;
  readonly key: string;
  /** The PEM file a client trusts (the certificate itself). */
  readonly caPath: string;
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
  const dir = await mkdtemp(join(tmpdir(), 'gatecheck-mock-tls-'));
  const caPath = join(dir, 'ca.pem');
  await writeFile(caPath, pems.cert, { mode: 0o644 });
  return { cert: pems.cert, key: pems.private, caPath };
}
