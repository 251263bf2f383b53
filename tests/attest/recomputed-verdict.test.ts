/**
 * `verify` recomputes the verdict (cli/attest/recompute.ts), property-tested over rule verdicts, --strict and
 * --max-skipped-must: a report the reporter would write for them verifies, showing the reporter's sentence
 * (no false refusal: partial runs, warnings, gated SHOULD rules); the same rules with another run's verdict
 * are refused whenever that verdict differs. Seed from GATECHECK_PROPERTY_SEED to repeat a run.
 */
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { outcomeHolds } from '../../cli/attest/recompute.ts';
import { verifyStatement } from '../../cli/attest/verify.ts';
import { conclude, countVerdicts } from '../../specs/report/aggregate.ts';
import type { RuleReport, Verdict } from '../../specs/report/model.ts';
import { installed, type Json, reportBytes, signed, statementFor, testKey } from './signing.ts';

const VERDICTS: readonly Verdict[] = ['pass', 'fail', 'warn', 'skip', 'not-run'];
const seed = Number(process.env.GATECHECK_PROPERTY_SEED ?? Date.now() % 2 ** 31);

/**
 * A run: every rule passed but a few (none to four) with another verdict, so that conformant, partial and
 * not-conformant runs all come up; strictness and the coverage gate.
 */
const run = (rules: number) =>
  fc.record({
    verdicts: fc
      .array(fc.record({ at: fc.nat({ max: rules - 1 }), verdict: fc.constantFrom(...VERDICTS) }), {
        maxLength: 4,
      })
      .map((changes) => {
        const verdicts = Array.from({ length: rules }, (): Verdict => 'pass');
        for (const { at, verdict } of changes) verdicts[at] = verdict;
        return verdicts;
      }),
    strict: fc.boolean(),
    maxSkippedMust: fc.option(fc.nat({ max: 3 }), { nil: undefined }),
  });

type Run = { verdicts: Verdict[]; strict: boolean; maxSkippedMust: number | undefined };

/** The report the reporter writes for `rules` with `verdict`'s conclusion (honest when both are the same run). */
function reportOf(rules: Run, verdict: Run): (report: Json) => void {
  return (report) => {
    const apply = (r: Run) =>
      (report.rules as RuleReport[]).map((rule, i) => ({ ...rule, verdict: r.verdicts[i] as Verdict }));
    const facts = (r: Run) => ({ ...report.run, strict: r.strict, maxSkippedMust: r.maxSkippedMust });
    report.rules = apply(rules);
    report.run.strict = rules.strict;
    if (rules.maxSkippedMust === undefined) delete report.run.maxSkippedMust;
    else report.run.maxSkippedMust = rules.maxSkippedMust;
    report.counts = countVerdicts(report.rules);
    report.conformance = conclude(apply(verdict), report.unattributed, facts(verdict));
  };
}

test('a report as the reporter writes it verifies and shows its sentence; another run’s verdict over the same rules is refused', async () => {
  test.setTimeout(120_000);
  const key = await testKey();
  const ruleCount = (JSON.parse(reportBytes().toString('utf8')) as { rules: unknown[] }).rules.length;
  const context = { key: key.verifying, installed: await installed() };
  const verify = async (change: (report: Json) => void) => {
    const bytes = reportBytes(change);
    const statementText = signed(await statementFor(bytes), key.signing);
    return { result: verifyStatement({ ...context, reportBytes: bytes, statementText }), bytes };
  };
  const outcomes = new Set<string>();
  await fc.assert(
    fc.asyncProperty(run(ruleCount), run(ruleCount), async (honest, other) => {
      const { result, bytes } = await verify(reportOf(honest, honest));
      const report = JSON.parse(bytes.toString('utf8')) as Json;
      expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
      if (result.ok) expect(result.recomputed.conformance.statement).toBe(report.conformance.statement);
      outcomes.add(report.conformance.outcome);

      // Same rules, same run facts, another run's conclusion: refused unless it concludes the same.
      const lie = await verify(
        reportOf(honest, { ...other, strict: honest.strict, maxSkippedMust: honest.maxSkippedMust }),
      );
      const told = (JSON.parse(lie.bytes.toString('utf8')) as Json).conformance;
      const same = ['outcome', 'conformant', 'level', 'complete'].every(
        (f) => told[f] === report.conformance[f],
      );
      const sameFailing = JSON.stringify(told.failing) === JSON.stringify(report.conformance.failing);
      expect(lie.result.ok, JSON.stringify(lie.result)).toBe(same && sameFailing);
    }),
    { seed, numRuns: 25 },
  );
  // The property saw more than one kind of run (printed with the seed on failure).
  expect(outcomes.size, `seed ${seed}`).toBeGreaterThan(1);
});

test('a failed rule is never attested conformant, whatever the verdict rules say (checked apart from conclude)', () => {
  const counts = { pass: 0, fail: 0, warn: 0, skip: 0, 'not-run': 0, 'not-applicable': 0, total: 0 };
  const verdict = (conformant: boolean) => ({
    conformance: {
      conformant,
      outcome: conformant ? ('conformant' as const) : ('not-conformant' as const),
      level: conformant ? ('MUST' as const) : null,
      complete: true,
      statement: conformant ? 'Conformant at MUST level' : 'Not conformant: 1 MUST rule fails',
      failing: [],
    },
    counts: { MUST: counts, SHOULD: counts, INFO: counts },
  });
  const rules = [
    { id: 'a', verdict: 'pass' as const },
    { id: 'b', verdict: 'fail' as const },
  ];
  expect(outcomeHolds(rules, verdict(true))).toBe(
    'verdict: 1 rule failed (b) yet the verdict computed is conformant: a failed rule is a failure, waived or not',
  );
  expect(outcomeHolds(rules, verdict(false))).toBeUndefined();
  expect(outcomeHolds([{ id: 'a', verdict: 'pass' }], verdict(true))).toBeUndefined();
});
