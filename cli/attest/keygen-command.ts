/** `gatecheck keygen [--out <prefix>] [--type ed25519|p256] [--format pem|jwk] [--force]`. */
import { existsSync } from 'node:fs';
import { displayPath } from '../../specs/report/text.ts';
import { EXIT, type ExitCode, UsageError } from '../exit-codes.ts';
import type { Io } from '../outcome.ts';
import { generateKeyFiles, type KeyFormat } from './keygen.ts';
import type { KeyAlgorithm } from './keys.ts';

export interface KeygenOptions {
  /** Absolute path prefix: <prefix>.key (private) and <prefix>.pub (public). */
  readonly out: string;
  readonly algorithm: KeyAlgorithm;
  readonly format: KeyFormat;
  readonly force: boolean;
}

export async function runKeygen(options: KeygenOptions, io: Io): Promise<ExitCode> {
  const privateFile = `${options.out}.key`;
  const publicFile = `${options.out}.pub`;
  if (!options.force) {
    for (const file of [privateFile, publicFile]) {
      if (existsSync(file)) throw new UsageError(`keygen: ${displayPath(file)} exists; --force replaces it`);
    }
  }
  let keyId: string;
  try {
    keyId = await generateKeyFiles({ ...options, privateFile, publicFile });
  } catch (e) {
    throw new UsageError(
      `keygen: cannot write the key files (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  const priv = displayPath(privateFile);
  const pub = displayPath(publicFile);
  io.out(
    [
      `gatecheck: wrote ${priv}: the private key (mode 0600). Keep it secret — a CI secret, never the repository`,
      `gatecheck: wrote ${pub}: the public key. Publish it beside your reports`,
      `gatecheck: key id ${keyId} (${options.algorithm})`,
      `  sign a run:  npx gatecheck --profile <profile> --sign-key ${priv}`,
      `  check it:    npx gatecheck verify reports/conformance.intoto.jsonl --key ${pub}`,
      '',
    ].join('\n'),
  );
  return EXIT.conformant;
}
