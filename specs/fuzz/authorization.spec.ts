/**
 * Property-based fuzzing of the Authorization header (docs/fuzzing.md): generated valid, invalid and
 * byte-level values per scheme, judged by the rules in specs/rules/fuzz.ts. Each test is one fast-check
 * property with a fixed seed (printed; GATECHECK_SEED changes it) and its share of GATECHECK_BUDGET.
 */
import { forRule } from '../kit/fixtures.ts';
import { runFuzzPlan, test } from '../kit/fuzz-fixtures.ts';
import { authorizationPlans } from './plans/authorization.ts';

for (const plan of authorizationPlans) {
  test(plan.title, forRule(plan.rule), async ({ fuzz }, info) => {
    await runFuzzPlan(plan, fuzz, info);
  });
}
