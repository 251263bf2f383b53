/**
 * The run's TLS settings, one source for every client of the suite (the checks' client, the fuzz
 * clients, the preflight, the token fetcher): a private CA (`--ca-cert` /
 * GATECHECK_CA_CERT, profile `tls.ca`), a client certificate (`tls.cert`/`tls.key`, RFC 8446 §4.4.2) and
 * `tls.insecure`, which turns verification off and is reported loudly wherever the run reports.
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import * as tlsRoots from 'node:tls';
import { ENV } from '../../shared/env.ts';
import { tempFolder } from '../../shared/temp-folder.ts';
import { ProfileError } from '../profile/load-error.ts';
import type { Profile } from '../profile/types.ts';

export interface RunTls {
  /** Absolute paths, for Playwright's options and NODE_EXTRA_CA_CERTS. */
  readonly caPath: string | undefined;
  readonly certPath: string | undefined;
  readonly keyPath: string | undefined;
  readonly insecure: boolean;
}

/** node:tls / node:https options: `ca` adds to (never replaces) the default roots via NODE's own list. */
export interface NodeTlsOptions {
  readonly ca?: string[];
  readonly cert?: string;
  readonly key?: string;
  readonly rejectUnauthorized: boolean;
}

export const INSECURE_WARNING =
  'gatecheck: WARNING: TLS certificate verification is OFF (profile tls.insecure): the target is not authenticated';

export function runTls(profile: Profile, env: NodeJS.ProcessEnv = process.env): RunTls {
  const at = (p: string | undefined): string | undefined =>
    p === undefined || p === '' ? undefined : resolve(p);
  return {
    caPath: at(env[ENV.caCert]) ?? at(profile.tls?.ca),
    certPath: at(profile.tls?.cert),
    keyPath: at(profile.tls?.key),
    insecure: profile.tls?.insecure === true,
  };
}

const cache = new Map<string, string>();
function read(path: string, field: string): string {
  let text = cache.get(path);
  if (text === undefined) {
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      throw new ProfileError(field, `cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
    cache.set(path, text);
  }
  return text;
}

/** Reads the PEM files (once per process); a missing file is a ProfileError naming the field. */
export function nodeTlsOptions(tls: RunTls): NodeTlsOptions {
  const { rootCertificates } = tlsRoots;
  return {
    // `ca` replaces Node's roots, so the system's are kept beside the private CA.
    ...(tls.caPath === undefined
      ? {}
      : { ca: [...rootCertificates, read(tls.caPath, '/tls/ca (or --ca-cert)')] }),
    ...(tls.certPath === undefined ? {} : { cert: read(tls.certPath, '/tls/cert') }),
    ...(tls.keyPath === undefined ? {} : { key: read(tls.keyPath, '/tls/key') }),
    rejectUnauthorized: !tls.insecure,
  };
}

/** Checks that every file the settings name can be read, before any request. */
export function checkTlsFiles(tls: RunTls): void {
  nodeTlsOptions(tls);
}

/**
 * A PEM bundle of the private CA plus the extra CAs already named by `existing` (NODE_EXTRA_CA_CERTS holds
 * one file), for child processes to read at start. Public certificates only; `remove` deletes it.
 */
export async function extraCaBundle(
  caPath: string,
  existing: string | undefined,
): Promise<{ path: string; remove: () => Promise<void> }> {
  const parts = [read(caPath, '/tls/ca (or --ca-cert)')];
  if (existing) parts.unshift(await readFile(existing, 'utf8').catch(() => ''));
  const dir = await tempFolder('gatecheck-ca-');
  const path = join(dir.path, 'extra-ca.pem');
  await writeFile(path, parts.join('\n'));
  return { path, remove: dir.remove };
}
