/**
 * Mutated and forged Bearer tokens (docs/fuzzing.md "JWT mutations"): the fuzz.jwt.* properties over every
 * mutation class, and the jwt.attack.* catalogue, one property per class (specs/rules/jwt-attacks.ts).
 */
import { forRule } from '../kit/fixtures.ts';
import { runFuzzPlan, test } from '../kit/fuzz-fixtures.ts';
import { jwtPlans } from './plans/jwt.ts';

for (const plan of jwtPlans) {
  test(plan.title, forRule(plan.rule), async ({ fuzz }, info) => {
    await runFuzzPlan(plan, fuzz, info);
  });
}
