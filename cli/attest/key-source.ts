/**
 * Where a key comes from, as `--sign-key` and `--key` name it: a file, or `env:NAME` for a key held in an
 * environment variable (a CI secret) — the profile's `{ "env": "NAME" }` written as a flag. Parsing only: no
 * file or variable is read here (cli/args.ts stays free of I/O).
 *
 * No message repeats the value given (issue #42): a key pasted where its file name goes would otherwise reach
 * the CI log. A refusal says the value's length and the forms accepted; a file that does not exist is named
 * only by that length too (keys.ts), since an unrecognised key (a raw seed) looks like any file name.
 */
import { KEY_FORMS, looksLikeKeyMaterial } from './key-material.ts';

export type KeySource =
  | {
      readonly file: string;
      /** Length of the value as given: what a message says of a file that is not there. */
      readonly given?: number;
    }
  | { readonly env: string };

/** Environment variable names as the profile's `{ "env": … }` accepts them (profile.schema.json envRef). */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `env:NAME` → { env }, anything else → { file } (resolved by the caller); a message naming what is wrong
 * otherwise, never repeating the value.
 */
export function parseKeySource(raw: string): KeySource | string {
  if (raw.trim() === '') return 'must name a key file or env:NAME';
  if (looksLikeKeyMaterial(raw))
    return `got key material (${raw.length} characters, not repeated here), not a file name: give ${KEY_FORMS}`;
  if (!raw.startsWith('env:')) return { file: raw, given: raw.length };
  const name = raw.slice('env:'.length);
  return ENV_NAME.test(name)
    ? { env: name }
    : `env:NAME needs an environment variable name (letters, digits, _); the ${raw.length} characters given are not one (not repeated here)`;
}

export function describeSource(source: KeySource): string {
  return 'env' in source ? `environment variable ${source.env}` : source.file;
}
