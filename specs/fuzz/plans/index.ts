/** Every fuzz plan, and the weights that split the run's fuzz cases between their rules. */
import { authorizationPlans } from './authorization.ts';
import { jwtPlans } from './jwt.ts';
import type { FuzzPlan } from './types.ts';

export const fuzzPlans: readonly FuzzPlan[] = [...authorizationPlans, ...jwtPlans];

export const FUZZ_WEIGHTS: Readonly<Record<string, number>> = Object.fromEntries(
  fuzzPlans.map((plan) => [plan.rule.id, plan.weight]),
);

export function planFor(ruleId: string): FuzzPlan {
  const plan = fuzzPlans.find((p) => p.rule.id === ruleId);
  if (!plan) throw new TypeError(`no fuzz plan for rule ${ruleId}`);
  return plan;
}
