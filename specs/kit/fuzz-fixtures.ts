/**
 * The fuzz specs' `test` and `runFuzzPlan`, which runs a plan inside a test and turns its result into the
 * suite's verdicts (RuleViolation for MUST, `warning` for SHOULD unless strict, `observation` for INFO).
 *
 * `test` is the suite's own (specs/kit/fixtures.ts), whose worker fixture `fuzz` (specs/kit/fuzz-worker.ts) holds the
 * run settings, the JWT kit and the clients: one fixture set for conformance and fuzz tests, so they share
 * workers. With GATECHECK_FUZZ_CLIENT=playwright the cases show in Playwright's traces.
 */
import { request as apiRequest, type TestInfo } from '@playwright/test';
import { ENV } from '../../shared/env.ts';
import { createPlaywrightClient } from '../fuzz/clients/playwright.ts';
import { scheduledClient } from '../fuzz/clients/scheduled.ts';
import { noVerdictReason } from '../fuzz/engine/depth.ts';
import { DEFAULT_MAX_SHRINK_CASES } from '../fuzz/engine/property.ts';
import { runPlan } from '../fuzz/engine/run-plan.ts';
import { casesFor } from '../fuzz/engine/settings.ts';
import { type Sizing, sizeToPace } from '../fuzz/engine/sizing.ts';
import { FUZZ_WEIGHTS } from '../fuzz/plans/index.ts';
import type { FuzzPlan } from '../fuzz/plans/types.ts';
import { EVIDENCE_ATTACHMENT } from '../lib/evidence.ts';
import { ANNOTATION } from '../rules/types.ts';
import { currentTestClock } from '../run/test-clock.ts';
import { recordBrokenRule } from '../verdict/verdict.ts';
import { RuleViolation } from '../verdict/verify.ts';
import { test as suiteTest } from './fixtures.ts';
import type { FuzzWorker } from './fuzz-worker.ts';

export type { FuzzWorker } from './fuzz-worker.ts';

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

/**
 * Before the rule starts: its share of the run's time, and the pace in force for its requests (its endpoint's
 * counters) — its cases are sized to them (specs/fuzz/engine/sizing.ts).
 */
async function sized(
  plan: FuzzPlan,
  fuzz: FuzzWorker,
  planned: number,
  workers: number,
): Promise<Sizing & { readonly deadline: number }> {
  const endpoint = fuzz.env.profile.endpoints[plan.endpoint];
  // Two questions to the run's coordinator, independent of each other: asked at once, one round trip.
  const [deadline, pace] = await Promise.all([
    fuzz.scheduler.fuzzShare(Object.keys(FUZZ_WEIGHTS).length, workers),
    endpoint === undefined
      ? undefined
      : fuzz.scheduler.paceFor(
          fuzz.scheduler.bucketOf(
            new URL(`${fuzz.env.baseUrl}${endpoint.path}`).pathname,
            [],
            endpoint.method,
          ),
        ),
  ]);
  return { ...sizeToPace(planned, pace, deadline - Date.now()), deadline };
}

/** Runs the plan through node:http, or through a fresh APIRequestContext when GATECHECK_FUZZ_CLIENT=playwright. */
async function runWithClient(plan: FuzzPlan, fuzz: FuzzWorker, sized: { cases: number; deadline: number }) {
  const env = { ...(await fuzz.current()), deadline: sized.deadline, cases: sized.cases };
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
  const sizing = await sized(
    plan,
    fuzz,
    casesFor(plan.rule.id, fuzz.settings.totalCases, FUZZ_WEIGHTS),
    info.config.workers,
  );
  if ('skip' in sizing) {
    test.skip(true, `run budget: ${sizing.skip}`);
    return;
  }
  const planned = sizing.cases;
  // Its own timeout from its plan: the cases at the pace in force, and 5 ms per case and per shrinking request
  // of its own work on top (waits for the target's limit extend it as they happen: specs/run/test-clock.ts).
  info.setTimeout(info.timeout + sizing.needsMs + (planned + DEFAULT_MAX_SHRINK_CASES) * 5);
  const outcome = await runWithClient(plan, fuzz, sizing);
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
  const unjudged = Object.values(stats.unjudged).reduce((a, b) => a + b, 0);
  // The clock is never a verdict: a rule stopped by time before its minimum depth, or one whose answers were
  // mostly no verdict, is skipped saying what it sent and what it would have needed (specs/fuzz/engine/depth.ts).
  const noVerdict = failure
    ? undefined
    : noVerdictReason(stats, planned, () => ({
        msPerRequest: currentTestClock()?.activeMsPerRequest(),
        concurrency: fuzz.settings.concurrency,
      }));
  if (noVerdict !== undefined) {
    test.skip(true, noVerdict);
    return;
  }
  if (stats.stopped !== undefined || fuzz.settings.depth !== undefined || sizing.note !== undefined) {
    // Coverage before depth: say how deep this rule went when the budget made it shallower.
    info.annotations.push({
      type: ANNOTATION.observation,
      description:
        `[${plan.rule.id}] depth: ${stats.cases} of ${planned} planned cases` +
        `${stats.stopped ? ` (stopped: ${stats.stopped})` : ''}${sizing.note ? ` (sized: ${sizing.note})` : ''}` +
        `${fuzz.settings.depth ? ` (run: ${fuzz.settings.depth})` : ''}`,
    });
  }
  const sent = stats.cases + stats.shrinkCases;
  const perSecond = stats.durationMs > 0 ? Math.round((sent / stats.durationMs) * 1000) : 0;
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
