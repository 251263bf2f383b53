/**
 * Each identity's credentials as environment references with suggested names, one variable per scheme and
 * identity (`GATECHECK_ADMIN_BEARER`, `GATECHECK_USER_APIKEY`, …), never a value; and the list of every
 * variable the profile names, printed whole and written as a `.env`-style file of names beside the profile.
 */
import { type CredentialSuffix, credentialVariable } from '../../shared/credential-env.ts';
import { isObject } from './document-extensions.ts';
import type { Carrier, ProfileScheme } from './security.ts';

type Json = Record<string, unknown>;
export type IdentityName = 'admin' | 'user' | 'ratelimit';

/** The variable's name comes from the one table init and the mock share (shared/credential-env.ts). */
function env(identity: IdentityName, field: CredentialSuffix): { env: string } {
  return { env: credentialVariable(identity, field) };
}

/**
 * `schemes`: the profile schemes some picked endpoint accepts; `bearers`: the carriers behind the Bearer one.
 * A client-credentials or password flow among them gives a token the suite fetches itself (RFC 6749 §4.4,
 * §4.3); else the token is a variable.
 */
export function identity(
  name: IdentityName,
  schemes: readonly ProfileScheme[],
  bearers: readonly Carrier[],
  scope: string | undefined,
): Json {
  const out: Json = {};
  const flow = bearers.find((c) => c.flow !== undefined)?.flow;
  if (schemes.includes('bearer')) {
    if (flow !== undefined)
      out.token = {
        oauth2: {
          tokenUrl: flow.tokenUrl,
          grant: flow.grant,
          clientId: env(name, 'CLIENT_ID'),
          clientSecret: env(name, 'CLIENT_SECRET'),
          ...(flow.grant === 'password'
            ? { username: env(name, 'OAUTH_USERNAME'), password: env(name, 'OAUTH_PASSWORD') }
            : {}),
          ...(scope ? { scope } : {}),
        },
      };
    else out.bearer = env(name, 'BEARER');
  }
  if (schemes.includes('basic'))
    out.basic = { username: env(name, 'USERNAME'), password: env(name, 'PASSWORD') };
  if (schemes.includes('apikey')) out.apikey = env(name, 'APIKEY');
  return out;
}

export interface Variable {
  readonly name: string;
  /** Where the profile uses it: `/identities/admin/basic/password`. */
  readonly field: string;
}

/** Every `{ "env": NAME }` of the profile, in document order, once each. */
export function variablesOf(profile: unknown): Variable[] {
  const out: Variable[] = [];
  const walk = (value: unknown, pointer: string) => {
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) walk(v, `${pointer}/${i}`);
    } else if (isObject(value)) {
      const keys = Object.keys(value);
      if (keys.length === 1 && keys[0] === 'env' && typeof value.env === 'string') {
        if (!out.some((v) => v.name === value.env)) out.push({ name: value.env, field: pointer });
        return;
      }
      for (const [k, v] of Object.entries(value))
        if (k !== 'jwtClaims' && k !== 'sampleItem') walk(v, `${pointer}/${k}`);
    }
  };
  walk(profile, '');
  return out;
}

/** The to-do line naming every variable to set, or undefined when the profile names none. */
export function variablesTodo(variables: readonly Variable[]): string | undefined {
  if (variables.length === 0) return undefined;
  const count = `${variables.length} variable${variables.length === 1 ? '' : 's'}`;
  return `/identities: credentials are environment references; set ${count}: ${variables.map((v) => v.name).join(', ')} (the run stops at the first one missing)`;
}

/** A `.env`-style file: each variable's name with an empty value, and a comment naming the field it fills. */
export function envFile(variables: readonly Variable[], profileFile: string): string {
  const lines = [
    `# The environment variables ${profileFile} reads its credentials from (gatecheck init).`,
    '# Names only: fill in each value from your secret store; never commit the filled-in file.',
    ...variables.flatMap((v) => [`# ${v.field}`, `${v.name}=`]),
  ];
  return `${lines.join('\n')}\n`;
}
