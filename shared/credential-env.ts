/**
 * The environment variables that carry a profile's credentials, named in this one place: `gatecheck init`
 * writes them into the profiles it makes (`{ "env": NAME }`, cli/init/), and the mock prints its own test
 * credentials under the same names (`gatecheck-mock --print-env` and its banner, mock/cli/), so a profile
 * that init wrote from the mock's `/openapi.json` runs with what the mock printed (docs/package.md).
 *
 * One variable per identity and credential field: `GATECHECK_<IDENTITY>_<FIELD>`, e.g. GATECHECK_ADMIN_PASSWORD.
 */

/** Where in a profile identity each credential sits, and the name its variable ends with. */
export const CREDENTIAL_FIELDS = [
  { at: ['bearer'], suffix: 'BEARER' },
  { at: ['token', 'oauth2', 'clientId'], suffix: 'CLIENT_ID' },
  { at: ['token', 'oauth2', 'clientSecret'], suffix: 'CLIENT_SECRET' },
  { at: ['token', 'oauth2', 'username'], suffix: 'OAUTH_USERNAME' },
  { at: ['token', 'oauth2', 'password'], suffix: 'OAUTH_PASSWORD' },
  { at: ['basic', 'username'], suffix: 'USERNAME' },
  { at: ['basic', 'password'], suffix: 'PASSWORD' },
  { at: ['apikey'], suffix: 'APIKEY' },
] as const;

export type CredentialSuffix = (typeof CREDENTIAL_FIELDS)[number]['suffix'];

/** The test issuer's private key, a JWK as JSON (the profile's `jwt.privateJwk`). */
export const JWT_PRIVATE_JWK_VARIABLE = 'GATECHECK_JWT_PRIVATE_JWK';
/** The HS256 secret (the profile's `jwt.secret`). */
export const JWT_SECRET_VARIABLE = 'GATECHECK_JWT_SECRET';

/** `GATECHECK_<IDENTITY>_<FIELD>`: the identity's name upper-cased, anything but letters and digits as `_`. */
export function credentialVariable(identity: string, suffix: CredentialSuffix): string {
  return `GATECHECK_${identity.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_${suffix}`;
}

export interface CredentialVariable {
  readonly name: string;
  readonly value: string;
}

/** The literal credentials an identity of a profile holds, each under its variable's name, in table order. */
export function identityVariables(identity: string, credentials: unknown): CredentialVariable[] {
  const out: CredentialVariable[] = [];
  for (const { at, suffix } of CREDENTIAL_FIELDS) {
    let value: unknown = credentials;
    for (const key of at)
      value =
        value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (typeof value === 'string' && value !== '')
      out.push({ name: credentialVariable(identity, suffix), value });
  }
  return out;
}
