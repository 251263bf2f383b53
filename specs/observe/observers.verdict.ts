/**
 * The observer verdicts: one test per observer rule (specs/rules/observed.ts), judged on the tallies every
 * worker left in the store (store.ts) — every response of the rule's kind the run received, from
 * conformance checks, fuzz cases, JWT attacks and rate-limit probes. These tests run after the conformance
 * project has finished (playwright.config.ts: the `observers` project is its teardown), so nothing is missed.
 *
 * A fault fails the rule once: the first offending request is the evidence, the message says how many of
 * the responses showed it. No response of the kind: the rule is skipped, saying so.
 */
import { observedRefusalNoResource } from '../rules/refusal.ts';
import { forRule } from '../rules/tags.ts';
import type { Rule } from '../rules/types.ts';
import { readTallies, type Tally, targetDir } from '../run/observation-store.ts';
import { baseUrlOf, runEnv, runTargetTest as test } from '../run-target.ts';
import { setUpState } from '../setup/run-host.ts';
import { failWithEvidence } from '../verdict/verify.ts';
import { JUDGES } from './judges.ts';
import { REFUSAL_KIND, settleRefusals } from './refusal-resource.ts';

/** Every observer rule: the pure judges, and the refusals' watch whose waiting refusals are settled here. */
const OBSERVERS: readonly { rule: Rule; kind: string; settle?: (tally: Tally) => Tally }[] = [
  ...JUDGES,
  { rule: observedRefusalNoResource, kind: REFUSAL_KIND, settle: settleRefusals },
];

// A teardown runs after its checks whatever happened to them, and may have no dependencies: after a failed
// set-up (specs/setup/run.setup.ts) no check ran and the profile may not even resolve, so nothing is judged.
test.beforeAll(async () => {
  const setUp = await setUpState();
  test.skip(
    setUp.state === 'failed',
    `not run: the run's set-up failed (${'error' in setUp ? setUp.error : ''})`,
  );
});

for (const judge of OBSERVERS) {
  const title = `every one of the run's ${judge.kind} → ${judge.rule.requirement}`;
  test(title, forRule(judge.rule), async ({ runTarget, profile }) => {
    const env = runEnv(runTarget);
    const stored = readTallies(targetDir(baseUrlOf(env, profile), env))[judge.rule.id];
    const tally = stored && judge.settle ? judge.settle(stored) : stored;
    if (tally?.unjudged)
      test.info().annotations.push({
        type: 'observed',
        description: `${judge.rule.id}: ${tally.unjudged} ${judge.kind} not judged (seen before any resource, with the list of those waiting full)`,
      });
    if (!tally || tally.seen === 0)
      test.skip(
        true,
        `precondition not met: the run received no ${judge.kind} to judge${tally?.pending?.length ? ' against a protected resource it saw a permitted identity get' : ''}`,
      );
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
  });
}
