/**
 * The OAuth feature's builder: the token endpoint and JWKS (RFC 6749 §4.3, §4.4, §5; docs/mock.md "Tokens
 * the way production hands them out") from the mock's settings. They hand out credentials, so they stand
 * beside the policy rather than in it. Bad settings → a one-line ConfigError naming `config.oauth`.
 */
import type { AuthSettings } from '../auth/types.ts';
import { ConfigError } from '../util/config-error.ts';
import { createOAuthEndpoints, type OAuthEndpoints } from './endpoint.ts';
import type { OAuthSettings } from './settings.ts';

export interface OAuthOptions {
  readonly oauth: OAuthSettings;
  readonly auth: AuthSettings;
  readonly realm: string;
  readonly maxBodyBytes: number;
}

export async function buildOAuth(config: OAuthOptions): Promise<OAuthEndpoints> {
  try {
    return await createOAuthEndpoints({
      settings: config.oauth,
      identitiesPath: config.auth.identitiesPath,
      jwksPath: config.auth.jwksPath,
      issuer: config.auth.issuer,
      audience: config.auth.audience,
      realm: config.realm,
      maxBodyBytes: config.maxBodyBytes,
    });
  } catch (error) {
    throw new ConfigError(`config.oauth: ${error instanceof Error ? error.message : String(error)}`);
  }
}
