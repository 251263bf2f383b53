/**
 * Secrets from the environment: wherever the profile takes a credential it also takes `{ "env": "NAME" }`
 * (fixtures/schemas/profile.schema.json, `secret`), and this replaces it with the variable's value — the way
 * CI hands out secrets. A missing or empty variable stops the run before any request with one line naming
 * the field and the variable, never a value (docs/profile.md "Secrets from the environment").
 */
import { ProfileError } from './load-error.ts';

/** Free-form parts of a profile: an `{ "env": … }` object there is data, not a reference. */
const FREE_FORM = new Set(['jwtClaims', 'sampleItem', 'headers']);

function isEnvReference(value: unknown): value is { env: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === 'env' && typeof (value as { env: unknown }).env === 'string';
}

function escapePointer(key: string): string {
  // RFC 6901 §3: "~" is written "~0" and "/" is written "~1".
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function lookup(pointer: string, name: string, env: NodeJS.ProcessEnv): string {
  const value = env[name];
  if (value === undefined)
    throw new ProfileError(pointer, `needs environment variable ${name}, which is not set`);
  if (value === '') throw new ProfileError(pointer, `needs environment variable ${name}, which is empty`);
  return value;
}

/** Every `{ "env": NAME }` of the profile data with its field, in document order (`gatecheck check`). */
export function envReferences(data: unknown): { readonly pointer: string; readonly name: string }[] {
  const found: { pointer: string; name: string }[] = [];
  const walk = (value: unknown, pointer: string, key: string): void => {
    if (isEnvReference(value)) found.push({ pointer, name: value.env });
    else if (Array.isArray(value))
      for (const [i, item] of value.entries()) walk(item, `${pointer}/${i}`, key);
    else if (value !== null && typeof value === 'object' && !FREE_FORM.has(key))
      for (const [k, v] of Object.entries(value)) walk(v, `${pointer}/${escapePointer(k)}`, k);
  };
  walk(data, '', '');
  return found;
}

/** A copy of the validated profile data with every `{ "env": NAME }` replaced; throws ProfileError. */
export function resolveEnvSecrets(data: unknown, env: NodeJS.ProcessEnv = process.env): unknown {
  const walk = (value: unknown, pointer: string, key: string): unknown => {
    if (isEnvReference(value)) {
      const text = lookup(pointer, value.env, env);
      if (key !== 'privateJwk') return text;
      // A private JWK (RFC 7517) kept whole in one CI secret, as JSON.
      try {
        const jwk = JSON.parse(text) as unknown;
        if (jwk !== null && typeof jwk === 'object' && typeof (jwk as { kty?: unknown }).kty === 'string')
          return jwk;
      } catch {
        // Reported below without the value.
      }
      throw new ProfileError(
        pointer,
        `needs environment variable ${value.env} to hold a JSON Web Key (JSON with "kty")`,
      );
    }
    if (Array.isArray(value)) return value.map((item, i) => walk(item, `${pointer}/${i}`, key));
    if (value === null || typeof value !== 'object' || FREE_FORM.has(key)) return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, walk(v, `${pointer}/${escapePointer(k)}`, k)]),
    );
  };
  return walk(data, '', '');
}
