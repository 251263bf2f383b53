/**
 * The observer verdicts: one test per observer rule (specs/rules/observed.ts), judged on the tallies every
 * worker left in the store (store.ts) — every response of the rule's kind the run received, from
 * conformance checks, fuzz cases, JWT attacks and rate-limit probes. These tests run after the conformance
 * project has finished (playwright.config.ts: the `observers` project is its teardown), so nothing is missed.
 *
 * A fault fails the rule once: the first offending request is the evidence, the message says how many of
 * the responses showed it. No response of the kind: the rule is skipped, saying so.
 */
import { baseUrlOf, forRule, runEnv, test } from '../fixtures.ts';
import { failWithEvidence } from '../lib/verify.ts';
import { JUDGES } from './judges.ts';
import { readTallies, targetDir } from './store.ts';

for (const judge of JUDGES) {
  test(
    `every one of the run's ${judge.kind} → ${judge.rule.requirement}`,
    forRule(judge.rule),
    async ({ runTarget, profile }) => {
      const env = runEnv(runTarget);
      const tally = readTallies(targetDir(baseUrlOf(env, profile), env))[judge.rule.id];
      if (!tally || tally.seen === 0)
        test.skip(true, `precondition not met: the run received no ${judge.kind} to judge`);
      if (!tally || tally.faults === 0 || !tally.first) return;
      const { evidence } = tally.first;
      const count = `${tally.faults} of ${tally.seen} ${judge.kind}`;
      test.info().annotations.push({ type: 'observed', description: `${judge.rule.id}: ${count}` });
      failWithEvidence(
        judge.rule,
        {
          ...evidence,
          actual: `${evidence.actual} — on ${count}; first: ${evidence.request.method} ${evidence.request.url}`,
        },
        [
          `  first:    ${evidence.request.method} ${evidence.request.url} (of ${count})`,
          `  response: ${evidence.response?.status ?? ''}`,
          `  replay:   ${evidence.replay}`,
        ],
      );
    },
  );
}
