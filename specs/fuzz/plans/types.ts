/**
 * A fuzz plan ties a catalogue rule to the arbitrary that feeds it and the judge of each answer, and says
 * what the profile must give for it to run. Plans are Playwright-free: the spec files run them against the
 * target, the project's own tests run them against broken stand-ins.
 */
import type fc from 'fast-check';
import type { Profile } from '../../profile/types.ts';
import type { Rule } from '../../rules/types.ts';
import type { Outcome } from '../clients/types.ts';
import type { Judge } from '../engine/verdict.ts';
import type { JwtKit, KitUnavailable } from '../jwt/kit.ts';
import type { EndpointRole, FuzzRequest } from '../request.ts';

export interface PlanContext {
  readonly profile: Profile;
  readonly kit: JwtKit | KitUnavailable;
  /** Sends one request through node:http and returns the answer: for baselines such as the canonical status. */
  probe(request: FuzzRequest, endpoint: EndpointRole): Promise<Outcome>;
}

export interface PreparedPlan {
  readonly arbitrary: fc.Arbitrary<FuzzRequest>;
  readonly judge: Judge;
  /** Values to redact from reports beyond the profile's credentials (e.g. the canonical credential). */
  readonly secrets?: readonly string[];
  /** INFO rules: what the target did, once the run is over. */
  readonly observation?: () => string;
  /** A finer class of a case than its kind, for the failing classes a failed rule lists. */
  readonly classify?: (request: FuzzRequest) => string;
  /**
   * Every case of a small attack space (a few hundred at most), sent whole before the arbitrary is sampled
   * (specs/fuzz/engine/whole.ts): what a defect shows on one pair of the catalogue is then caught on every seed.
   */
  readonly whole?: readonly FuzzRequest[];
}

export interface PlanSkip {
  /** `profile lacks …: why` for missing data; otherwise the failed precondition. */
  readonly skip: string;
}

export interface FuzzPlan {
  readonly rule: Rule;
  /** The test title: stimulus → expectation. */
  readonly title: string;
  /** Share of the run's fuzz cases (specs/fuzz/engine/settings.ts casesFor). */
  readonly weight: number;
  /** Where cases go unless they name an endpoint. */
  readonly endpoint: EndpointRole;
  prepare(context: PlanContext): Promise<PreparedPlan | PlanSkip>;
}

export function isSkip(prepared: PreparedPlan | PlanSkip): prepared is PlanSkip {
  return 'skip' in prepared;
}
