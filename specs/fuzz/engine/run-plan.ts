/**
 * Runs one fuzz plan against a target: prepares it from the profile (or says why it is skipped), gives it
 * its share of the run's cases and its seed, and runs the property. Playwright-free, so the project's own
 * tests can run plans against broken stand-in servers exactly as the conformance specs run them.
 */
import type { Profile } from '../../profile/types.ts';
import { RunBudgetExhausted } from '../../run/scheduler.ts';
import type { Client } from '../clients/types.ts';
import type { JwtKit, KitUnavailable } from '../jwt/kit.ts';
import { FUZZ_WEIGHTS } from '../plans/index.ts';
import { type FuzzPlan, isSkip } from '../plans/types.ts';
import type { EndpointRole } from '../request.ts';
import { runFuzzProperty } from './property.ts';
import { noteOutcome, rateLimitReason } from './rate-limit.ts';
import { casesFor, type FuzzSettings } from './settings.ts';
import type { FuzzResult, FuzzTarget } from './types.ts';

export interface PlanEnvironment {
  readonly profile: Profile;
  /** The target's base URL, without a trailing slash. */
  readonly baseUrl: string;
  readonly settings: FuzzSettings;
  readonly kit: JwtKit | KitUnavailable;
  readonly clients: { readonly http: Client; readonly raw: Client; readonly playwright?: Client };
  /** When the plan must stop sending new cases (epoch ms): its share of the run's time budget. */
  readonly deadline?: number;
  /** The plan's cases, when sized to the pace in force (specs/kit/fuzz-fixtures.ts); else its share of the run's. */
  readonly cases?: number;
}

export type PlanOutcome =
  | { readonly skipped: string }
  | { readonly result: FuzzResult; readonly plannedCases: number; readonly observation?: string };

function target(env: PlanEnvironment, client: Client): FuzzTarget {
  const paths: Partial<Record<EndpointRole, string>> = {};
  const methods: Partial<Record<EndpointRole, string>> = {};
  for (const role of ['public', 'protected', 'admin'] as const) {
    const endpoint = env.profile.endpoints[role];
    if (!endpoint) continue;
    paths[role] = endpoint.path;
    methods[role] = endpoint.method ?? 'GET';
  }
  return { baseUrl: env.baseUrl.replace(/\/+$/, ''), paths, methods, client, raw: env.clients.raw };
}

export async function runPlan(plan: FuzzPlan, env: PlanEnvironment): Promise<PlanOutcome> {
  try {
    return await runPlanInBudget(plan, env);
  } catch (e) {
    // The run's budget could not afford even the plan's set-up requests (specs/run/scheduler.ts).
    if (e instanceof RunBudgetExhausted) return { skipped: `run budget: ${e.message}` };
    throw e;
  }
}

async function runPlanInBudget(plan: FuzzPlan, env: PlanEnvironment): Promise<PlanOutcome> {
  const httpTarget = target(env, env.clients.http);
  const probe = async (authorization: readonly string[], endpoint: EndpointRole) => {
    const path = httpTarget.paths[endpoint];
    if (path === undefined) throw new TypeError(`the profile names no ${endpoint} endpoint`);
    return env.clients.http.send({
      method: httpTarget.methods?.[endpoint] ?? 'GET',
      url: `${httpTarget.baseUrl}${path}`,
      authorization,
    });
  };
  // Every plan fuzzes one endpoint role; a profile without it skips the plan — checked here, once for all plans.
  if (httpTarget.paths[plan.endpoint] === undefined) {
    return { skipped: `profile lacks endpoints.${plan.endpoint}: no ${plan.endpoint} path to fuzz` };
  }
  const prepared = await plan.prepare({
    profile: env.profile,
    kit: env.kit,
    probe: (request, endpoint) => probe(request.authorization, endpoint),
  });
  if (isSkip(prepared)) return { skipped: prepared.skip };
  // A target that does not answer a plain request (down, TLS refused, wrong URL) would fail fuzz.no-5xx for
  // reasons that have nothing to do with Authorization: say so instead.
  const baseline = await probe([], plan.endpoint);
  if (baseline.kind === 'dropped') {
    return {
      skipped: `the target did not answer a request without Authorization on the ${plan.endpoint} path (${baseline.error})`,
    };
  }
  noteOutcome(baseline);
  const limited = rateLimitReason(baseline);
  if (limited !== undefined) {
    return {
      skipped: `the target is rate limiting the suite (${limited}): fuzzing now would judge nothing`,
    };
  }

  // Playwright's client when given (GATECHECK_FUZZ_CLIENT=playwright), else node:http (docs/fuzzing.md "Clients").
  const client = env.clients.playwright ?? env.clients.http;
  const plannedCases = env.cases ?? casesFor(plan.rule.id, env.settings.totalCases, FUZZ_WEIGHTS);
  const replay = env.settings.replay?.ruleId === plan.rule.id ? env.settings.replay.path : undefined;
  const result = await runFuzzProperty({
    rule: plan.rule,
    arbitrary: prepared.arbitrary,
    judge: prepared.judge,
    target: target(env, client),
    endpoint: plan.endpoint,
    cases: plannedCases,
    seed: env.settings.seed,
    seedSource: env.settings.seedSource,
    concurrency: env.settings.concurrency,
    ...(replay === undefined ? {} : { path: replay }),
    ...(env.deadline === undefined ? {} : { deadline: env.deadline }),
    secrets: [...(prepared.secrets ?? []), ...(isKit(env.kit) ? env.kit.secrets : [])],
    ...(prepared.classify === undefined ? {} : { classify: prepared.classify }),
    ...(prepared.whole === undefined ? {} : { whole: prepared.whole }),
  });
  return {
    result,
    plannedCases,
    ...(prepared.observation ? { observation: prepared.observation() } : {}),
  };
}

function isKit(kit: JwtKit | KitUnavailable): kit is JwtKit {
  return !('unavailable' in kit);
}
