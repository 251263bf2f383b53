/**
 * The suite's mutation score (issue 7): the conformance suite is run against the mock once per defect mode
 * (mock/defects/registry.ts; what each must fail: tests/mutation/expectations/) and once against the conformant mock, in one child `playwright test`
 * (harness/run.ts), and
 *   - the conformant mock passes every rule (strict: SHOULD rules count);
 *   - each defect fails every rule it is meant to break, and no rule outside those and its stated collateral;
 *   - every rule of the catalogue is killed by some defect, or is stated unproven with the reason.
 * The matrix goes to reports/mutation-matrix.json and .md (docs/defects.md summarises it).
 *
 * What the run leaves out, stated: the fuzz specs (specs/fuzz/: fuzz.* and jwt.attack.*) run only for the
 * conformant mock and the defects one of whose rules or collateral is a fuzz-checked rule; the rest of the
 * suite runs for every defect, unfiltered.
 *
 * Each defect's run holds the checks of the rules it is meant to break and its stated collateral only (the
 * project's `grep`, harness/manifest.ts): that each defect is caught by its rules is what the score shows.
 * The conformant mock runs every check, and so does a defect one of whose rules is an observer rule
 * (observed.*: judged over every answer the run's checks received). GATECHECK_MUTATION_FULL=1 runs every
 * check against every defect, as before, so a defect that breaks more than it states shows
 * (`unexpected`); only such a run writes reports/mutation-matrix.*.
 *
 * GATECHECK_MUTATION_DEFECTS=a,b runs only those defects (for working on them; the reports are then not
 * written). GATECHECK_MUTATION_BUDGET overrides the fuzz budget of every target.
 */
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { DEFECT_NAMES, type DefectName, defectByName } from '../../mock/defects/registry.ts';
import { fuzzPlans } from '../../specs/fuzz/plans/index.ts';
import { catalogue } from '../../specs/rules/catalogue.ts';
import { compiledCode } from '../setup/compiled-suite.ts';
import { EXPECTATIONS } from './expectations/index.ts';
import { CONFORMANT } from './harness/manifest.ts';
import { buildMatrix, writeMatrix } from './harness/matrix.ts';
import { ROOT } from './harness/paths.ts';
import { runMutation } from './harness/run.ts';

const TEST_COMMAND =
  'GATECHECK_MUTATION_FULL=1 npx playwright test -c tests/playwright.config.ts tests/mutation/score.test.ts';

/** Rules the fuzz specs check: a defect aimed at one of them needs the fuzz specs in its run. */
const FUZZ_RULES = new Set(fuzzPlans.map((plan) => plan.rule.id));

/**
 * Fuzz cases per target run (GATECHECK_BUDGET), split between the fuzz rules by weight (specs/fuzz/plans).
 * Bearer-token defects get more: each jwt.attack.* property has a small weight, and its few cases must
 * include a variant the defect lets through.
 */
const BUDGET = { default: 200, bearerTokens: 1200 } as const;

function wantsFuzz(name: string): boolean {
  if (name === CONFORMANT) return true;
  const expected = EXPECTATIONS[name as DefectName] as (typeof EXPECTATIONS)[DefectName] | undefined;
  return (
    expected !== undefined &&
    [...expected.rules, ...(expected.collateral ?? [])].some((id) => FUZZ_RULES.has(id))
  );
}

/** Every check against every target (GATECHECK_MUTATION_FULL=1), or each defect's own rules. */
const EVERY_CHECK = process.env.GATECHECK_MUTATION_FULL === '1';

/**
 * The rules whose checks run against `name`; undefined for every check. An observer rule (observed.*) that is
 * only collateral is left out: it would start the target's observers worker (≈ 2 CPU-s) to judge a rule the
 * defect is not meant to break, and the defects whose own rules it is show that it fails.
 */
function rulesOf(name: string): readonly string[] | undefined {
  if (EVERY_CHECK || name === CONFORMANT) return undefined;
  const expected = EXPECTATIONS[name as DefectName] as (typeof EXPECTATIONS)[DefectName] | undefined;
  if (expected === undefined || expected.rules.some((id) => id.startsWith('observed.'))) return undefined;
  return [...expected.rules, ...(expected.collateral ?? []).filter((id) => !id.startsWith('observed.'))];
}

function budgetOf(name: string): number {
  const override = Number(process.env.GATECHECK_MUTATION_BUDGET);
  if (Number.isInteger(override) && override >= 0 && process.env.GATECHECK_MUTATION_BUDGET) return override;
  return defectByName(name)?.layer === 'bearer tokens' ? BUDGET.bearerTokens : BUDGET.default;
}

function selectedDefects(): DefectName[] {
  const only = process.env.GATECHECK_MUTATION_DEFECTS?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!only?.length) return [...DEFECT_NAMES];
  const unknown = only.filter((name) => !(DEFECT_NAMES as readonly string[]).includes(name));
  if (unknown.length) throw new TypeError(`GATECHECK_MUTATION_DEFECTS: unknown defect ${unknown.join(', ')}`);
  return only as DefectName[];
}

test('each defect mode fails exactly the rules it maps to, and the conformant mock passes every rule', async () => {
  // 74 targets of ≈ 8 s each on 2 workers ≈ 5 min on a quiet 2-core machine (305 s, 2026-11-24); a bound of
  // about three times that for a loaded one, not a figure.
  test.setTimeout(16 * 60_000);
  const defects = selectedDefects();
  const full = defects.length === DEFECT_NAMES.length;
  const result = await runMutation({
    defects,
    budget: budgetOf,
    fuzz: wantsFuzz,
    rules: rulesOf,
    workers: 2,
    timeoutMs: 15 * 60_000,
    // The suite compiled once for the self-tests: no TypeScript loader in the child's ≈ 110 workers.
    code: compiledCode(),
    // A run of a few minutes: one line per finished target, so it is never silent.
    onProgress: (line) => process.stdout.write(`${line}\n`),
  });
  const matrix = buildMatrix({ result, defects, fuzz: wantsFuzz, budget: budgetOf });
  if (full && EVERY_CHECK) await writeMatrix(matrix, join(ROOT, 'reports'), TEST_COMMAND);
  test.info().annotations.push({
    type: 'mutation score',
    description:
      `defects caught ${matrix.score.defectsCaught}/${matrix.score.defectsTotal}, ` +
      `rules killed ${matrix.score.rulesKilled}/${matrix.score.rulesTotal} ` +
      `(${matrix.score.rulesUnproven} stated unproven), ${(matrix.durationMs / 1000).toFixed(0)} s`,
  });
  await test.info().attach('mutation-matrix.json', {
    body: JSON.stringify(matrix, null, 2),
    contentType: 'application/json',
  });

  expect(matrix.runErrors, 'errors of the child run as a whole').toEqual([]);
  expect(matrix.conformant.errors, 'errors of the conformant target').toEqual([]);
  expect(matrix.conformant.failing, 'rules the conformant mock fails').toEqual([]);
  // Passes, not merely "does not fail": a rule skipped against the conformant mock would prove nothing.
  const notPassed = catalogue.map((r) => r.id).filter((id) => !matrix.conformant.passing.includes(id));
  expect(notPassed, 'catalogue rules the conformant mock did not pass (skipped or not run)').toEqual([]);
  for (const row of matrix.defects) {
    expect.soft(row.errors, `${row.defect}: errors outside any rule`).toEqual([]);
    expect.soft(row.missed, `${row.defect}: rules it is meant to break that passed`).toEqual([]);
    expect.soft(row.unexpected, `${row.defect}: failing rules it does not state`).toEqual([]);
  }
  if (full) {
    const unkilled = matrix.rules.filter((r) => r.killedBy.length === 0 && r.unproven !== undefined);
    const unexplained = unkilled.filter((r) => r.unproven === 'no defect of this run made it fail');
    expect(
      unexplained.map((r) => r.rule),
      'rules no defect kills, without a stated reason',
    ).toEqual([]);
  }
});
