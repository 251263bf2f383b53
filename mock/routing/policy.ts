/**
 * The access policy (fixtures/policy.json, validated by fixtures/schemas/policy.schema.json): per path pattern
 * and method, `"public"` or the accepted schemes plus required roles/scopes (docs/design.md "Routes and policy").
 */

import { resolve } from 'node:path';
import { SCHEMAS_DIR } from '../../shared/paths.ts';
import type { Scheme } from '../auth/types.ts';
import { readJsonFile } from '../util/read-json.ts';
import { validateWithSchema } from '../util/validate-with-schema.ts';

/** Methods a policy may list. HEAD follows GET; OPTIONS is always answered (before credentials). */
export const POLICY_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type PolicyMethod = (typeof POLICY_METHODS)[number];

export interface ProtectedAccess {
  /** Accepted Authorization schemes, in the order their 401 challenges are sent. */
  readonly schemes: readonly Scheme[];
  /** At least one of these roles, else 403. */
  readonly roles?: readonly string[];
  /** Every one of these scopes, else 403. */
  readonly scopes?: readonly string[];
  readonly description?: string;
}

/**
 * `public`: no credentials needed; `closed`: 403 for every client, before credentials are looked at (seed §7,
 * 403 cause 5: server-configured access-control rules); else the credentials and roles/scopes required.
 */
export type Access = 'public' | 'closed' | ProtectedAccess;

export interface PolicyRoute {
  /** `/<resource>` or `/<resource>/:id`. */
  readonly path: string;
  /** The data resource a singular route serves, when not the one its path names (`/limited` → `protected`). */
  readonly resource?: string;
  readonly methods: Readonly<Partial<Record<PolicyMethod, Access>>>;
  readonly description?: string;
}

export interface Policy {
  readonly $schema?: string;
  readonly description?: string;
  readonly routes: readonly PolicyRoute[];
}

export const POLICY_SCHEMA = resolve(SCHEMAS_DIR, 'policy.schema.json');

/** The inline policy when given, else the file; validated either way. Throws ConfigError (one line). */
export function loadPolicy(inline: unknown, path: string): Policy {
  if (inline !== undefined) {
    validateWithSchema(POLICY_SCHEMA, inline, 'policy', 'the inline policy');
    return inline as Policy;
  }
  const parsed = readJsonFile(path, 'policy');
  validateWithSchema(POLICY_SCHEMA, parsed, 'policy', path);
  return parsed as Policy;
}
