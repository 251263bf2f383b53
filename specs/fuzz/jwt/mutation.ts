/** A token derived from the kit's valid one that a conforming target must refuse, and how to send it. */

import type fc from 'fast-check';
import { SEED_CREDENTIALS } from '../../profile/credential-maker.ts';
import type { FuzzRequest } from '../request.ts';
import type { JwtKit, KitUnavailable } from './kit.ts';

export interface JwtMutation {
  /** The attack class, e.g. `alg-none`. */
  readonly attack: string;
  /** What this instance does, e.g. `alg "nOnE", signature kept, claims escalated`. */
  readonly variant: string;
  readonly token: string;
  /** The claims were changed to an admin's: the case goes to the admin path. */
  readonly escalated: boolean;
}

/** A mutation arbitrary, or why the profile cannot support it. */
export type MutationSource = fc.Arbitrary<JwtMutation> | KitUnavailable;

export function isUnavailable(source: MutationSource): source is KitUnavailable {
  return 'unavailable' in source;
}

/** The Bearer request carrying a mutation; escalations go to the admin path. */
export function mutationCase(m: JwtMutation): FuzzRequest {
  return {
    kind: `jwt ${m.attack}: ${m.variant}`,
    authorization: [SEED_CREDENTIALS.bearer(m.token)],
    ...(m.escalated ? { endpoint: 'admin' as const } : {}),
  };
}

/** The user's claims, or the user's claims turned into an admin's (still the user's `sub`). */
export function claimsFor(kit: JwtKit, escalate: boolean): Readonly<Record<string, unknown>> {
  return escalate ? { ...kit.payload, ...kit.escalation } : kit.payload;
}

export function escalationNote(escalate: boolean): string {
  return escalate ? ', claims escalated to admin' : '';
}
