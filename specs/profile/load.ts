/**
 * Loads and validates a target profile (docs/design.md "The target profile"). A bad profile stops the run
 * before any request, with one line naming the field and what is expected, e.g.
 * `profile: /endpoints/admin/schemes/0 must be one of bearer, basic, apikey`.
 * The CLI reuses `loadProfile` and maps `ProfileError` to exit code 2.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type ErrorObject, schemaValidator } from '../../shared/json-schema.ts';
import { FIXTURES_DIR, SCHEMAS_DIR } from '../../shared/paths.ts';
import type { Profile } from './types.ts';

export const PROFILE_SCHEMA_PATH = resolve(SCHEMAS_DIR, 'profile.schema.json');

/** The profile of the bundled mock, used when neither BASE_URL nor GATECHECK_PROFILE is set. */
export const DEFAULT_PROFILE_PATH = resolve(FIXTURES_DIR, 'mock.profile.json');

/** A profile that cannot be used. `message` is the one line shown to the user; `field` is a JSON pointer. */
export class ProfileError extends Error {
  readonly code = 'ERR_GATECHECK_PROFILE';
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`profile: ${field} ${reason}`);
    this.name = 'ProfileError';
    // One line, not a stack: this is the user's mistake, not ours (Playwright prints `stack` for global setup errors).
    this.stack = `${this.name}: ${this.message}`;
  }
}

function validate(data: unknown): ErrorObject | undefined {
  // The package's one Ajv set-up: the first error is the one line we print.
  const validator = schemaValidator(PROFILE_SCHEMA_PATH);
  return validator(data) ? undefined : (validator.errors?.[0] ?? undefined);
}

function describeError(error: ErrorObject): ProfileError {
  const at = error.instancePath === '' ? '/' : error.instancePath;
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return new ProfileError(
        `${error.instancePath}/${String(p.additionalProperty)}`,
        'is not a known field',
      );
    case 'required':
      return new ProfileError(`${error.instancePath}/${String(p.missingProperty)}`, 'is required');
    case 'enum':
      return new ProfileError(at, `must be one of ${(p.allowedValues as unknown[]).map(String).join(', ')}`);
    case 'type':
      return new ProfileError(at, `must be ${String(p.type)}`);
    case 'pattern':
      return new ProfileError(at, `must match ${String(p.pattern)}`);
    default:
      return new ProfileError(at, error.message ?? `fails ${error.keyword}`);
  }
}

/** Checks the schema cannot express. */
function semantic(profile: Profile): ProfileError | undefined {
  const jwt = profile.jwt;
  if (jwt) {
    const symmetric = jwt.alg.startsWith('HS');
    if (symmetric && !jwt.secret) return new ProfileError('/jwt/secret', `is required for alg ${jwt.alg}`);
    if (!symmetric && !jwt.privateJwk) {
      return new ProfileError(
        '/jwt/privateJwk',
        `is required for alg ${jwt.alg} (or drop /jwt and give tokens)`,
      );
    }
  }
  for (const [name, identity] of Object.entries(profile.identities)) {
    // RFC 7617 §2: "a user-id containing a colon character is invalid".
    if (identity?.basic?.username.includes(':')) {
      return new ProfileError(`/identities/${name}/basic/username`, 'must not contain ":" (RFC 7617 §2)');
    }
  }
  return undefined;
}

/** Validates an already parsed profile; throws ProfileError. */
export function parseProfile(data: unknown): Profile {
  const error = validate(data);
  if (error) throw describeError(error);
  const profile = data as Profile;
  const problem = semantic(profile);
  if (problem) throw problem;
  return profile;
}

/** Reads, parses and validates the profile at `path`; throws ProfileError naming the field. */
export function loadProfile(path: string): Profile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ProfileError(path, `cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ProfileError(path, `is not valid JSON (${(e as Error).message})`);
  }
  return parseProfile(data);
}
