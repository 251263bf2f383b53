/**
 * The self-description feature's builder: the mock's OpenAPI document from its settings (docs/mock.md "The
 * mock describes itself"). A policy or data file it cannot read → a one-line ConfigError naming it.
 */
import type { MockConfig } from '../config.ts';
import { loadPolicy } from '../routing/policy.ts';
import { ConfigError } from '../util/config-error.ts';
import { createOpenApiEndpoint, type OpenApiEndpoint } from './endpoint.ts';

/** `tokenPath`: the token endpoint's path, which the document's `oauth2` scheme names (RFC 6749 §3.2). */
export async function buildOpenApi(config: MockConfig, tokenPath: string): Promise<OpenApiEndpoint> {
  try {
    return await createOpenApiEndpoint({
      policy: config.policy ?? loadPolicy(undefined, config.policyPath),
      dataPath: config.dataPath,
      identitiesPath: config.auth.identitiesPath,
      tokenPath,
      realm: config.realm,
    });
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`openapi: ${error instanceof Error ? error.message : String(error)}`);
  }
}
