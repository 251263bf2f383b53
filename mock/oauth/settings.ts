/**
 * Settings of the mock's OAuth 2.0 token endpoint (RFC 6749 §3.2) and its JWKS (RFC 7517 §5): which clients
 * exist, how long the access tokens it issues live, and where its signing keys are.
 */

import { isAbsolute, resolve } from 'node:path';

export interface OAuthSettings {
  /** Clients and their hashed secrets (fixtures/oauth-clients.json). */
  readonly clientsPath: string;
  /** `expires_in` of issued access tokens, in seconds (RFC 6749 §5.1); tests use a few seconds. */
  readonly tokenLifetimeSeconds: number;
  /** The private JWK set tokens are signed with (its first key); the public half is served as the JWKS. */
  readonly signingKeysPath: string;
}

export type OAuthFile = Partial<OAuthSettings>;

export function defaultOAuth(fixturesDir: string): OAuthSettings {
  return {
    clientsPath: resolve(fixturesDir, 'oauth-clients.json'),
    tokenLifetimeSeconds: 3600,
    signingKeysPath: resolve(fixturesDir, 'keys/private.jwks.json'),
  };
}

export function mergeOAuth(base: OAuthSettings, file: OAuthFile | undefined, baseDir: string): OAuthSettings {
  const at = (p: string | undefined, fallback: string): string =>
    p === undefined ? fallback : isAbsolute(p) ? p : resolve(baseDir, p);
  return {
    clientsPath: at(file?.clientsPath, base.clientsPath),
    signingKeysPath: at(file?.signingKeysPath, base.signingKeysPath),
    tokenLifetimeSeconds: file?.tokenLifetimeSeconds ?? base.tokenLifetimeSeconds,
  };
}
