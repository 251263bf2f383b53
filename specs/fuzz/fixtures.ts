/**
 * The fuzz specs' `test` and `runFuzzPlan`, which runs a plan inside a test and turns its result into the
 * suite's verdicts (RuleViolation for MUST, `warning` for SHOULD unless strict, `observation` for INFO).
 *
 * `test` is the suite's own (specs/fixtures.ts), whose worker fixture `fuzz` (specs/fuzz/worker.ts) holds the
 * run settings, the JWT kit and the clients: one fixture set for conformance and fuzz tests, so they share
 * workers. With GATECHECK_FUZZ_CLIENT=playwright the cases show in Playwright's traces.
 */
import { request as apiRequest, type TestInfo } from '@playwright/test';
import { test as suiteTest } from '../fixtures.ts';
import { ENV } from '../lib/env.ts';
import { EVIDENCE_ATTACHMENT } from '../lib/evidence.ts';
import { recordBrokenRule } from '../lib/verdict.ts';
import { RuleViolation } from '../lib/verify.ts';
import { ANNOTATION } from '../rules/types.ts';
import { createPlaywrightClient } from './clients/playwright.ts';
import { scheduledClient } from './clients/scheduled.ts';
import { DEFAULT_MAX_SHRINK_CASES } from './engine/property.ts';
import { runPlan } from './engine/run-plan.ts';
import { casesFor, MIN_CASES_PER_RULE } from './engine/settings.ts';
import { FUZZ_WEIGHTS } from './plans/index.ts';
import type { FuzzPlan } from './plans/types.ts';
import type { FuzzWorker } from './worker.ts';

export type { FuzzWorker } from './worker.ts';

/** Annotation carrying the fuzz statistics of a test: seed, cases, time, cases/s, answers by status. */
export const FUZZ_ANNOTATION = 'fuzz';

export const test = suiteTest;

function attachEvidence(info: TestInfo, evidence: unknown): void {
  info.attachments.push({
    name: EVIDENCE_ATTACHMENT,
    contentType: 'application/json',
    body: Buffer.from(JSON.stringify(evidence, null, 2)),
  });
}

/** Runs the plan through node:http, or through a fresh APIRequestContext when GATECHECK_FUZZ_CLIENT=playwright. */
async function runWithClient(plan: FuzzPlan, fuzz: FuzzWorker, workers: number) {
  const deadline = await fuzz.scheduler.fuzzShare(Object.keys(FUZZ_WEIGHTS).length, workers);
  const env = { ...(await fuzz.current()), deadline };
  if (fuzz.settings.client !== 'playwright') return runPlan(plan, env);
  const context = await apiRequest.newContext({ timeout: fuzz.settings.timeoutMs });
  try {
    const client = scheduledClient(
      createPlaywrightClient(context, { timeoutMs: fuzz.settings.timeoutMs }),
      fuzz.scheduler,
      fuzz.observe,
    );
    return await runPlan(plan, { ...env, clients: { ...env.clients, playwright: client } });
  } finally {
    await context.dispose();
  }
}

/** Runs `plan` in the current test against the target and records its verdict by the rule's level. */
export async function runFuzzPlan(plan: FuzzPlan, fuzz: FuzzWorker, info: TestInfo): Promise<void> {
  // A large GATECHECK_BUDGET must not run into the configured test timeout: allow 5 ms per planned case
  // and per shrinking request on top of it.
  const planned = casesFor(plan.rule.id, fuzz.settings.totalCases, FUZZ_WEIGHTS);
  info.setTimeout(info.timeout + (planned + DEFAULT_MAX_SHRINK_CASES) * 5);
  const outcome = await runWithClient(plan, fuzz, info.config.workers);
  if ('skipped' in outcome) {
    test.skip(
      true,
      outcome.skipped.startsWith('profile lacks')
        ? outcome.skipped
        : `precondition not met: ${outcome.skipped}`,
    );
    return;
  }
  const { stats, failure } = outcome.result;
  if (!failure && stats.stopped !== undefined && stats.cases < Math.min(planned, MIN_CASES_PER_RULE)) {
    test.skip(
      true,
      `run budget: ${stats.stopped}; the rule sent ${stats.cases} of its minimum ${MIN_CASES_PER_RULE} cases`,
    );
    return;
  }
  if (stats.stopped !== undefined || fuzz.settings.depth !== undefined) {
    // Coverage before depth: say how deep this rule went when the budget made it shallower.
    info.annotations.push({
      type: ANNOTATION.observation,
      description:
        `[${plan.rule.id}] depth: ${stats.cases} of ${planned} planned cases` +
        `${stats.stopped ? ` (stopped: ${stats.stopped})` : ''}${fuzz.settings.depth ? ` (run: ${fuzz.settings.depth})` : ''}`,
    });
  }
  const sent = stats.cases + stats.shrinkCases;
  const perSecond = stats.durationMs > 0 ? Math.round((sent / stats.durationMs) * 1000) : 0;
  const unjudged = Object.values(stats.unjudged).reduce((a, b) => a + b, 0);
  info.annotations.push({
    type: FUZZ_ANNOTATION,
    description:
      `seed ${stats.runSeed} (rule seed ${stats.ruleSeed}); ${stats.cases} cases` +
      `${stats.shrinkCases ? ` + ${stats.shrinkCases} shrinking` : ''} in ${Math.round(stats.durationMs)} ms (${perSecond} cases/s); ` +
      `answers ${JSON.stringify(stats.statuses)}; clients ${JSON.stringify(stats.clients)}` +
      `${unjudged ? `; unjudged ${JSON.stringify(stats.unjudged)}` : ''}`,
  });
  if (outcome.observation)
    info.annotations.push({
      type: ANNOTATION.observation,
      description: `[${plan.rule.id}] ${outcome.observation}`,
    });
  if (unjudged > stats.cases / 2) {
    info.annotations.push({
      type: ANNOTATION.warning,
      description: `[${plan.rule.id}] ${unjudged} of ${stats.cases} answers were rate limiting, not a verdict: raise the target's limit for the suite or lower ${ENV.budget}`,
    });
  }
  if (!failure) return;
  attachEvidence(info, failure.evidence);
  const summary = `[${plan.rule.id}] expected ${failure.expected}; got ${failure.actual} (seed ${stats.runSeed}, path ${failure.path})`;
  if (recordBrokenRule(info, plan.rule.level, summary))
    throw new RuleViolation(plan.rule, failure.evidence, failure.message);
}
