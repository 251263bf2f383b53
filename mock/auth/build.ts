/**
 * The auth feature's builder: the authenticator from its settings (JWKS, identities, JWT checks). Missing
 * or bad key material → a one-line ConfigError, with the command that generates the fixtures.
 */

import { FIXTURES_DIR } from '../../shared/paths.ts';
import { ConfigError } from '../util/config-error.ts';
import { createAuthenticator } from './authenticator.ts';
import type { Authenticator, AuthSettings } from './types.ts';

export async function buildAuthenticator(settings: AuthSettings): Promise<Authenticator> {
  try {
    return await createAuthenticator(settings);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const hint = reason.includes('ENOENT')
      ? ` (generate the fixtures in ${FIXTURES_DIR}: npm run fixtures)`
      : '';
    throw new ConfigError(`config.auth: ${reason}${hint}`);
  }
}
