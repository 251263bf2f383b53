/**
 * The self-description feature's builder: the mock's OpenAPI document from its settings (docs/mock.md "The
 * mock describes itself"). A policy or data file it cannot read → a one-line ConfigError naming it.
 */
import type { MockConfig } from '../config.ts';
import { JWKS_PATH } from '../oauth/endpoint.ts';
import { loadPolicy } from '../routing/policy.ts';
import { ConfigError } from '../util/config-error.ts';
import { createOpenApiEndpoint, type OpenApiEndpoint } from './endpoint.ts';
import { describeExtensions } from './extensions.ts';

/**
 * `tokenPath`: the token endpoint's path, which the document's `oauth2` scheme names (RFC 6749 §3.2);
 * `faultHeader`: whether this listener honours the fault header, which the document then states.
 */
export async function buildOpenApi(
  config: MockConfig,
  tokenPath: string,
  faultHeader = false,
): Promise<OpenApiEndpoint> {
  try {
    const policy = config.policy ?? loadPolicy(undefined, config.policyPath);
    return await createOpenApiEndpoint({
      policy,
      dataPath: config.dataPath,
      identitiesPath: config.auth.identitiesPath,
      tokenPath,
      realm: config.realm,
      extensions: await describeExtensions(config, policy, JWKS_PATH, faultHeader),
    });
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`openapi: ${error instanceof Error ? error.message : String(error)}`);
  }
}
