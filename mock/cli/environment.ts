/**
 * The mock's test credentials as environment variables, under the names `gatecheck init` writes into a
 * profile (shared/credential-env.ts), so that a profile init wrote from the mock's `/openapi.json` runs with
 * them: `gatecheck-mock --print-env` prints them as `export` lines for `eval "$(gatecheck-mock --print-env)"`,
 * and the banner (mock/cli/banner.ts) labels the values it shows with the same names. Read from the mock's two
 * profiles — fixtures/mock.profile.json (Bearer demo tokens, Basic pairs, API keys) and
 * fixtures/mock.oauth.profile.json (each identity's OAuth 2.0 client) — and the test issuer's private key,
 * fixtures/keys/issuer.private.jwk.json, the file the banner names.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  type CredentialVariable,
  identityVariables,
  JWT_PRIVATE_JWK_VARIABLE,
} from '../../shared/credential-env.ts';
import { shellWord } from '../../shared/shell.ts';
import { FIXTURES_DIR } from '../config.ts';

export const PROFILE_PATH = resolve(FIXTURES_DIR, 'mock.profile.json');
/** The same identities obtaining Bearer tokens from the token endpoint: it holds the OAuth clients' secrets. */
export const OAUTH_PROFILE_PATH = resolve(FIXTURES_DIR, 'mock.oauth.profile.json');
/** The private JWK of the mock's test issuer (the profile's `jwt.privateJwk`), alone in a file. */
export const ISSUER_KEY_PATH = resolve(FIXTURES_DIR, 'keys/issuer.private.jwk.json');

export interface ProfileIdentity {
  bearer?: string;
  token?: { oauth2?: { clientId: string; clientSecret: string } };
  basic?: { username: string; password: string };
  apikey?: string;
}

function readJson(path: string): unknown {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function identitiesIn(path: string): Record<string, ProfileIdentity> | undefined {
  return (readJson(path) as { identities?: Record<string, ProfileIdentity> } | undefined)?.identities;
}

/** Each identity's credentials from both profiles: its Bearer token, Basic pair and key, and its OAuth client. */
export function mockIdentities(): Record<string, ProfileIdentity> | undefined {
  const plain = identitiesIn(PROFILE_PATH);
  if (plain === undefined) return undefined;
  const clients = identitiesIn(OAUTH_PROFILE_PATH) ?? {};
  return Object.fromEntries(
    Object.entries(plain).map(([name, identity]) => {
      const token = clients[name]?.token;
      return [name, token === undefined ? identity : { ...identity, token }];
    }),
  );
}

/** Every variable: each identity's credentials in shared/credential-env.ts's order, then the signing key. */
export function mockVariables(): CredentialVariable[] {
  const out = Object.entries(mockIdentities() ?? {}).flatMap(([name, identity]) =>
    identityVariables(name, identity),
  );
  const key = readJson(ISSUER_KEY_PATH);
  if (key !== undefined) out.push({ name: JWT_PRIVATE_JWK_VARIABLE, value: JSON.stringify(key) });
  return out;
}

/**
 * `gatecheck-mock --print-env`: a comment saying what they are, then one `export NAME=value` per variable.
 * `command` is how the user runs it (`npx gatecheck-mock --print-env`).
 */
export function printEnv(command: string): string {
  const variables = mockVariables();
  if (variables.length === 0)
    return '# gatecheck mock: no credentials found: generate the fixtures with `npm run fixtures`\n';
  return [
    `# The gatecheck mock's TEST-ONLY credentials under the names \`gatecheck init\` writes into a profile;`,
    `# use them as: eval "$(${command})"`,
    ...variables.map(({ name, value }) => `export ${name}=${shellWord(value)}`),
    '',
  ].join('\n');
}
