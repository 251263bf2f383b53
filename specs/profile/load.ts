/**
 * Loads and validates a target profile (docs/design.md "The target profile"). A bad profile stops the run
 * before any request, with one line naming the field and what is expected, e.g.
 * `profile: /endpoints/admin/schemes/0 must be one of bearer, basic, apikey`.
 * The CLI reuses `loadProfile` and maps `ProfileError` to exit code 2.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type ErrorObject, schemaValidator } from '../../shared/json-schema.ts';
import { FIXTURES_DIR, SCHEMAS_DIR } from '../../shared/paths.ts';
import { didYouMean } from './did-you-mean.ts';
import { resolveEnvSecrets } from './env-secrets.ts';
import { ProfileError } from './load-error.ts';
import type { Profile } from './types.ts';

export { ProfileError };

export const PROFILE_SCHEMA_PATH = resolve(SCHEMAS_DIR, 'profile.schema.json');

/**
 * Set by the process that validated a profile file first (the CLI, global setup for the workers it starts):
 * the SHA-256 of the exact text it validated against the schema. A process reading the same text skips that
 * schema check — Ajv compiles the profile schema in ≈0.2 s of CPU, in every worker — and still runs the
 * semantic checks and reads its secrets from the environment; any other text is validated as always.
 */
export const PROFILE_CHECKED_ENV = 'GATECHECK_PROFILE_CHECKED';

/** The digest PROFILE_CHECKED_ENV carries for a profile's text. */
export function profileDigest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** The profile of the bundled mock, used when neither BASE_URL nor GATECHECK_PROFILE is set. */
export const DEFAULT_PROFILE_PATH = resolve(FIXTURES_DIR, 'mock.profile.json');

function validate(data: unknown): ErrorObject | undefined {
  // The package's one Ajv set-up: the first error is the one line we print.
  const validator = schemaValidator(PROFILE_SCHEMA_PATH);
  if (validator(data)) return undefined;
  const errors = validator.errors ?? [];
  // A secret is a string or { "env": NAME } (anyOf): the anyOf error says so in one line, its branches don't.
  return errors.find((e) => e.keyword === 'anyOf') ?? errors[0];
}

function describeError(error: ErrorObject): ProfileError {
  const at = error.instancePath === '' ? '/' : error.instancePath;
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const field = String(p.additionalProperty);
      // The schema's verbose errors carry the object's own schema: its fields are the candidates.
      const known = Object.keys(
        (error.parentSchema as { properties?: object } | undefined)?.properties ?? {},
      );
      const nearest = didYouMean(field, known);
      return new ProfileError(
        `${error.instancePath}/${field}`,
        `is not a known field${nearest ? `; did you mean ${nearest}?` : ''}`,
      );
    }
    case 'required':
      return new ProfileError(`${error.instancePath}/${String(p.missingProperty)}`, 'is required');
    case 'enum':
      return new ProfileError(at, `must be one of ${(p.allowedValues as unknown[]).map(String).join(', ')}`);
    case 'type':
      return new ProfileError(at, `must be ${String(p.type)}`);
    case 'pattern':
      return new ProfileError(at, `must match ${String(p.pattern)}`);
    case 'anyOf':
      return new ProfileError(at, 'must be a non-empty string or { "env": "VARIABLE_NAME" }');
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
  const tls = profile.tls;
  if (tls && (tls.cert === undefined) !== (tls.key === undefined)) {
    return new ProfileError(
      tls.cert === undefined ? '/tls/cert' : '/tls/key',
      'is required with its pair (cert and key)',
    );
  }
  for (const [name, identity] of Object.entries(profile.identities)) {
    const oauth = identity?.token && 'oauth2' in identity.token ? identity.token.oauth2 : undefined;
    // RFC 6749 §4.3.2: username and password are REQUIRED for the password grant.
    if (oauth?.grant === 'password' && (oauth.username === undefined || oauth.password === undefined)) {
      return new ProfileError(
        `/identities/${name}/token/oauth2/${oauth.username === undefined ? 'username' : 'password'}`,
        'is required for grant password',
      );
    }
    const login = identity?.token && 'login' in identity.token ? identity.token.login : undefined;
    if (login?.json && login.form) {
      return new ProfileError(`/identities/${name}/token/login/form`, 'cannot be given with json (one body)');
    }
    // RFC 7617 §2: "a user-id containing a colon character is invalid".
    if (identity?.basic?.username.includes(':')) {
      return new ProfileError(`/identities/${name}/basic/username`, 'must not contain ":" (RFC 7617 §2)');
    }
  }
  return undefined;
}

/**
 * Validates an already parsed profile, then puts in the secrets it takes from `env` (`{ "env": NAME }`);
 * throws ProfileError. `schemaChecked`: this very text passed the schema in another process of the run.
 */
export function parseProfile(
  data: unknown,
  env: NodeJS.ProcessEnv = process.env,
  schemaChecked = false,
): Profile {
  const error = schemaChecked ? undefined : validate(data);
  if (error) throw describeError(error);
  const profile = resolveEnvSecrets(data, env) as Profile;
  const problem = semantic(profile);
  if (problem) throw problem;
  return profile;
}

/** Reads, parses and validates the profile at `path`; throws ProfileError naming the field. */
export function loadProfile(path: string, env: NodeJS.ProcessEnv = process.env): Profile {
  return readProfile(path, env).profile;
}

/** loadProfile, with the digest of the text it validated (what PROFILE_CHECKED_ENV passes on). */
export function readProfile(
  path: string,
  env: NodeJS.ProcessEnv = process.env,
): { readonly profile: Profile; readonly digest: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new ProfileError(
        path,
        'does not exist (ENOENT): no profile file there; `gatecheck init` writes one',
      );
    throw new ProfileError(path, `cannot be read (${code ?? String(e)})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ProfileError(path, `is not valid JSON (${(e as Error).message})`);
  }
  const digest = profileDigest(text);
  return { profile: parseProfile(data, env, env[PROFILE_CHECKED_ENV] === digest), digest };
}
