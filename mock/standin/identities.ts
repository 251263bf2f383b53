/**
 * The identities the mock issues for a document, and their credentials:
 * - `admin` holds every scope and role the document names (its flows' scopes, the names its requirements list)
 *   and the administrator's role (ADMIN_ROLE);
 * - `user`, a reader: every name except those writes (POST, PUT, PATCH, DELETE) or an administrator's
 *   operation (init's own `adminScore`, cli/init/picks.ts) ask for, plus those of the read init picks as its
 *   protected endpoint (`pickProtected`) — what `gatecheck init` expects of its `user` (allowed the protected
 *   read, refused the admin one);
 * - `nobody`: valid credentials and no scope at all;
 * - `scopes-<n>`: one per distinct set of names a requirement lists, holding exactly that set;
 * - `ratelimit` (when the document states `x-gatecheck-rate-limit`): the reader's grants, for the suite to exhaust.
 * Credentials are derived from the identity's name with HMAC-SHA-256 under a fixed key: the same on every start,
 * so what `--print-env` printed works against a mock started later. They are test credentials, printed on
 * purpose, and stand for nothing outside the mock.
 */
import { createHmac } from 'node:crypto';
import type { Operation } from '../../cli/init/operations.ts';
import { adminScore, pickProtected, rateLimitedOperations } from '../../cli/init/picks.ts';
import { X_RATE_LIMIT } from '../../shared/openapi-extensions.ts';
import type { DocumentScheme } from './schemes.ts';

export interface StandInIdentity {
  readonly name: string;
  /** The scopes (and OpenAPI 3.1 roles) it holds. */
  readonly grants: readonly string[];
  /** `admin` for the administrator, who alone may call what init reads as an administrator's operation. */
  readonly roles: readonly string[];
  readonly username: string;
  readonly password: string;
  readonly apikey: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

const KEY = 'gatecheck-mock stand-in credentials';

/**
 * The role an operation init reads as an administrator's (`adminScore`: a path segment, tag, description or
 * `x-` marker saying so) asks for besides its requirement's names: the document says it in words, and the
 * mock keeps those operations to its `admin`.
 */
export const ADMIN_ROLE = 'admin';

function derive(identity: string, field: string, length: number): string {
  return createHmac('sha256', KEY).update(`${identity}\u0000${field}`).digest('base64url').slice(0, length);
}

function issue(name: string, grants: readonly string[]): StandInIdentity {
  return {
    name,
    grants,
    roles: name === 'admin' ? [ADMIN_ROLE] : [],
    username: `gatecheck-${name}`,
    password: derive(name, 'password', 24),
    apikey: `gck_${derive(name, 'apikey', 32)}`,
    clientId: `gatecheck-${name}`,
    clientSecret: derive(name, 'client-secret', 32),
  };
}

/**
 * An operation the document's words mark as an administrator's (init's `adminScore` from its path, tags,
 * description or `x-` markers, not from the scopes it names): the mock keeps it to ADMIN_ROLE. One marked only
 * by administrator's scopes is kept to whoever holds them, as the document states.
 */
export function markedAdmin(op: Operation): boolean {
  return adminScore({ ...op, access: { ...op.access, needs: [] } }).score > 0;
}

/** The read init picks as its protected endpoint (cli/init/picks.ts): the user must be allowed it. */
export function protectedPick(
  doc: Record<string, unknown>,
  ops: readonly Operation[],
): Operation | undefined {
  return pickProtected(ops, rateLimitedOperations(doc, X_RATE_LIMIT))?.op;
}

export interface OperationNeeds {
  readonly op: Operation;
  /** The names each alternative lists. */
  readonly sets: readonly (readonly string[])[];
}

export function issueIdentities(
  doc: Record<string, unknown>,
  operations: readonly OperationNeeds[],
  schemes: ReadonlyMap<string, DocumentScheme>,
  rateLimited: boolean,
): StandInIdentity[] {
  const all = new Set<string>();
  for (const scheme of schemes.values()) for (const scope of scheme.scopes) all.add(scope);
  const sets = new Map<string, string[]>();
  const privileged = new Set<string>();
  for (const { op, sets: alternatives } of operations) {
    const admin = adminScore(op).score > 0 && !markedAdmin(op);
    for (const set of alternatives) {
      for (const n of set) all.add(n);
      if (set.length > 0) sets.set([...set].sort().join(' '), [...set].sort());
      if (op.method !== 'get' || admin) for (const n of set) privileged.add(n);
    }
  }
  // The read init picks as `protected` must open to the user (init: "both the admin and the user identity must
  // be allowed it"), whatever else its requirement names.
  const picked = protectedPick(
    doc,
    operations.map((o) => o.op),
  );
  const reader = [
    ...new Set([...[...all].filter((n) => !privileged.has(n)), ...(picked?.access.needs ?? [])]),
  ];
  const out = [issue('admin', [...all].sort()), issue('user', reader.sort()), issue('nobody', [])];
  if (rateLimited) out.push(issue('ratelimit', reader.sort()));
  [...sets.values()].forEach((set, i) => {
    out.push(issue(`scopes-${i + 1}`, set));
  });
  return out;
}
