/**
 * The fuzz specs' fixtures: one `fuzz` environment per worker — run settings (seed, cases, in-flight cap),
 * the JWT kit, a keep-alive node:http client and the raw-socket client — and `runFuzzPlan`, which runs a
 * plan inside a test and turns its result into the suite's verdicts (RuleViolation for MUST, `warning` for
 * SHOULD unless strict, `observation` for INFO).
 *
 * The fuzz tests stand on Playwright's bare test type (`_baseTest`, exported and typed by @playwright/test;
 * its browser-less core) plus the suite's `profile`, not on the full `test` the conformance specs use. The
 * full one sets up, per test, an artifacts recorder and the ~30 browser-context option fixtures it depends
 * on, each a step with a captured, source-mapped stack: about 15 ms of worker CPU a test, nothing a node:http
 * client needs, and half the time between fuzz tests (docs/fuzzing.md "Measured"). With
 * GATECHECK_FUZZ_CLIENT=playwright the cases go through an APIRequestContext and should show in Playwright's
 * traces, so the full test (and its recorder) is used then.
 */
import { _baseTest, request as apiRequest, type TestInfo } from '@playwright/test';
import {
  baseUrlOf,
  profileFixture,
  type RunTargetOption,
  runEnv,
  runTargetOption,
  test as suiteTest,
} from '../fixtures.ts';
import { ENV, isStrict } from '../lib/env.ts';
import { EVIDENCE_ATTACHMENT } from '../lib/evidence.ts';
import { rememberSecrets } from '../lib/secrets.ts';
import { RuleViolation } from '../lib/verify.ts';
import { observationsFlush, observeOutcome, observerFor } from '../observe/observer.ts';
import type { Profile } from '../profile/types.ts';
import { ANNOTATION } from '../rules/types.ts';
import { type Scheduler, schedulerFor } from '../run/scheduler.ts';
import { createNodeHttpClient } from './clients/node-http.ts';
import { createPlaywrightClient } from './clients/playwright.ts';
import { createRawSocketClient } from './clients/raw-socket.ts';
import { type ObserveOutcome, scheduledClient } from './clients/scheduled.ts';
import { DEFAULT_MAX_SHRINK_CASES } from './engine/property.ts';
import { type PlanEnvironment, runPlan } from './engine/run-plan.ts';
import {
  casesFor,
  FUZZ_CLIENT_ENV,
  type FuzzSettings,
  fuzzSettings,
  MIN_CASES_PER_RULE,
} from './engine/settings.ts';
import { createJwtKit, isKitUnavailable } from './jwt/kit.ts';
import { FUZZ_WEIGHTS } from './plans/index.ts';
import type { FuzzPlan } from './plans/types.ts';

/** Annotation carrying the fuzz statistics of a test: seed, cases, time, cases/s, answers by status. */
export const FUZZ_ANNOTATION = 'fuzz';

export interface FuzzWorker {
  readonly env: PlanEnvironment;
  readonly scheduler: Scheduler;
  readonly settings: FuzzSettings;
  /** The observers' hook for this target's answers (specs/observe/). */
  readonly observe: ObserveOutcome;
}

const bareTest = _baseTest.extend<object, { runTarget: RunTargetOption; profile: Profile }>({
  runTarget: runTargetOption,
  profile: profileFixture,
});
// The full test has every fixture of the bare one (and more); only `profile` and `fuzz` are used here.
const base: typeof bareTest =
  process.env[FUZZ_CLIENT_ENV]?.trim() === 'playwright'
    ? (suiteTest as unknown as typeof bareTest)
    : bareTest;

export const test = base.extend<{ observations: undefined }, { fuzz: FuzzWorker }>({
  observations: observationsFlush,
  fuzz: [
    async ({ runTarget, profile }, use, workerInfo) => {
      const env = runEnv(runTarget);
      const baseUrl = baseUrlOf(env, profile);
      const settings = fuzzSettings(profile, workerInfo.config.workers, env);
      const kit = createJwtKit(profile);
      if (!isKitUnavailable(kit)) rememberSecrets(kit.secrets);
      const http = createNodeHttpClient({ timeoutMs: settings.timeoutMs, maxSockets: settings.concurrency });
      const raw = createRawSocketClient({ timeoutMs: settings.timeoutMs });
      const scheduler = schedulerFor(profile, baseUrl, settings.concurrency, env);
      // Once per worker process (STYLE.md "Property tests": the seed is printed; the environment sets it).
      process.stdout.write(
        `gatecheck fuzz: seed ${settings.seed} (${settings.seedSource === 'default' ? `default; set ${ENV.seed} to change` : ENV.seed}), ` +
          `${settings.totalCases} cases across the fuzz rules, ${settings.concurrency} in flight per worker\n`,
      );
      const observe = observeOutcome(observerFor(profile, baseUrl));
      const clients = {
        http: scheduledClient(http, scheduler, observe),
        raw: scheduledClient(raw, scheduler, observe),
      };
      await use({ env: { profile, baseUrl, settings, kit, clients }, scheduler, settings, observe });
      http.close();
    },
    { scope: 'worker' },
  ],
});

function attachEvidence(info: TestInfo, evidence: unknown): void {
  info.attachments.push({
    name: EVIDENCE_ATTACHMENT,
    contentType: 'application/json',
    body: Buffer.from(JSON.stringify(evidence, null, 2)),
  });
}

/** Runs the plan through node:http, or through a fresh APIRequestContext when GATECHECK_FUZZ_CLIENT=playwright. */
async function runWithClient(plan: FuzzPlan, fuzz: FuzzWorker) {
  if (fuzz.settings.client !== 'playwright') return runPlan(plan, fuzz.env);
  const context = await apiRequest.newContext({ timeout: fuzz.settings.timeoutMs });
  try {
    const client = scheduledClient(
      createPlaywrightClient(context, { timeoutMs: fuzz.settings.timeoutMs }),
      fuzz.scheduler,
      fuzz.observe,
    );
    return await runPlan(plan, { ...fuzz.env, clients: { ...fuzz.env.clients, playwright: client } });
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
  const outcome = await runWithClient(plan, fuzz);
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
  if (plan.rule.level === 'INFO') {
    info.annotations.push({ type: ANNOTATION.observation, description: summary });
    return;
  }
  if (plan.rule.level === 'SHOULD' && !isStrict()) {
    info.annotations.push({ type: ANNOTATION.warning, description: summary });
    return;
  }
  throw new RuleViolation(plan.rule, failure.evidence, failure.message);
}
