/**
 * The routing feature's builder: the policy (inline, else its file; validated) compiled against the data's
 * resources. Throws a one-line ConfigError for a bad policy.
 */

import type { ResourceEngine } from '../resources/types.ts';
import { loadPolicy, type Policy } from './policy.ts';
import { compileRouter, type Router } from './router.ts';

export interface RoutingOptions {
  readonly policy: Policy | undefined;
  readonly policyPath: string;
  /** The realm of every challenge (RFC 9110 §11.5). */
  readonly realm: string;
}

export function buildRouter(options: RoutingOptions, engine: ResourceEngine): Router {
  return compileRouter(loadPolicy(options.policy, options.policyPath), engine, options.realm);
}
