/**
 * Where a key comes from, as `--sign-key` and `--key` name it: a file, or `env:NAME` for a key held in an
 * environment variable (a CI secret) — the profile's `{ "env": "NAME" }` written as a flag. Parsing only: no
 * file or variable is read here (cli/args.ts stays free of I/O).
 */

export type KeySource = { readonly file: string } | { readonly env: string };

/** Environment variable names as the profile's `{ "env": … }` accepts them (profile.schema.json envRef). */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A PEM block or a JSON Web Key given where a file name was expected (`--sign-key "$KEY"`). */
function looksLikeKeyMaterial(raw: string): boolean {
  return raw.includes('\n') || raw.includes('-----BEGIN') || raw.trimStart().startsWith('{');
}

/**
 * `env:NAME` → { env }, anything else → { file } (resolved by the caller); a message naming what is wrong
 * otherwise. A key given inline is refused without repeating it: the message would carry a private key to the
 * CI log (no secret leaves).
 */
export function parseKeySource(raw: string): KeySource | string {
  if (raw.trim() === '') return 'must name a key file or env:NAME';
  if (looksLikeKeyMaterial(raw))
    return 'got key material, not a file name or env:NAME (not repeated here): put the key in a file, or in an environment variable and pass env:NAME';
  if (!raw.startsWith('env:')) return { file: raw };
  const name = raw.slice('env:'.length);
  return ENV_NAME.test(name)
    ? { env: name }
    : `env:NAME needs an environment variable name (letters, digits, _), got "${raw}"`;
}

export function describeSource(source: KeySource): string {
  return 'env' in source ? `environment variable ${source.env}` : source.file;
}
