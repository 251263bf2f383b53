/**
 * The suite's one fixtures entry (Playwright idiom): `test` and `expect` for every conformance spec.
 *
 * Worker-scoped: `profile` (validated, from GATECHECK_PROFILE or the bundled mock's), `target` (an
 * APIRequestContext for BASE_URL inside the profile's budget), `mint` (jose tokens from profile.jwt).
 * Test-scoped: `kit`, the three together with the questions checks ask of them.
 *
 * A test of a rule is declared `test(title, forRule(rule), body)`: the title says stimulus → expectation,
 * forRule adds tags `@must`/`@should`/`@info` and `@rule:<id>` and annotations `rule` and one `ref` per
 * reference (specs/rules/types.ts). The level's consequence lives in the verifiers (specs/lib/verify.ts):
 * a SHOULD violation passes with a `warning` annotation unless GATECHECK_STRICT=1, an INFO check never
 * fails on what the target does.
 */
import { test as base, expect } from '@playwright/test';
import { refreshedAuthorization } from './credentials/client.ts';
import { Budget, DEFAULT_TIMEOUT_MS } from './lib/budget.ts';
import { ENV } from './lib/env.ts';
import { type Exchange, Target } from './lib/http.ts';
import { Kit } from './lib/kit.ts';
import { profileSecrets, rememberSecrets } from './lib/secrets.ts';
import { nodeTlsOptions, runTls } from './lib/tls.ts';
import { TokenMint } from './lib/tokens.ts';
import { observationsFlush, observerFor, seenOf } from './observe/observer.ts';
import { resolveRunTarget } from './profile/resolve.ts';
import type { Profile } from './profile/types.ts';
import { ANNOTATION, type Rule } from './rules/types.ts';
import { schedulerFor } from './run/scheduler.ts';

/**
 * Where a worker's checks go when a configuration's project says so — `use: { runTarget: { baseUrl,
 * profile, budget } }` — ahead of BASE_URL, GATECHECK_PROFILE and GATECHECK_BUDGET. One run can then check
 * several targets, one project each (the mutation run: tests/mutation/mutation.config.ts). Empty by default:
 * the environment decides, as for any run.
 */
export interface RunTargetOption {
  /** The target's base URL (BASE_URL). */
  readonly baseUrl?: string;
  /** Path of the target's profile (GATECHECK_PROFILE). */
  readonly profile?: string;
  /** Fuzz cases for the run (GATECHECK_BUDGET). */
  readonly budget?: number;
}

export const runTargetOption: [RunTargetOption, { scope: 'worker'; option: true }] = [
  {},
  { scope: 'worker', option: true },
];

/**
 * The environment a worker's checks read: the process's, with the project's `runTarget` written over it
 * under the variables' own names — so a project's target goes through the same resolution and validation
 * as BASE_URL and GATECHECK_PROFILE (specs/profile/resolve.ts) and the same fuzz settings (GATECHECK_BUDGET).
 */
export function runEnv(runTarget: RunTargetOption, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const { baseUrl, profile, budget } = runTarget;
  if (baseUrl === undefined && profile === undefined && budget === undefined) return env;
  return {
    ...env,
    ...(baseUrl === undefined ? {} : { [ENV.baseUrl]: baseUrl }),
    ...(profile === undefined ? {} : { [ENV.profile]: profile }),
    ...(budget === undefined ? {} : { [ENV.budget]: String(budget) }),
  };
}

/** The base URL a worker checks: BASE_URL of its environment (runEnv), else the profile's. */
export function baseUrlOf(env: NodeJS.ProcessEnv, profile: Profile): string {
  const baseUrl = env[ENV.baseUrl] || profile.baseUrl;
  if (!baseUrl) throw new Error(`no target: set ${ENV.baseUrl} or the profile's baseUrl`);
  return baseUrl;
}

export interface GateWorkerFixtures {
  runTarget: RunTargetOption;
  profile: Profile;
  target: Target;
  mint: TokenMint | undefined;
}

export interface GateTestFixtures {
  kit: Kit;
  /** Automatic: writes what the observers saw after each test (specs/observe/). */
  observations: undefined;
}

/**
 * The validated profile, once per worker, resolved as global setup resolves it (a BASE_URL without a profile
 * is refused); shared with the fuzz specs' lighter test (specs/fuzz/fixtures.ts).
 */
export const profileFixture: [
  (args: { runTarget: RunTargetOption }, use: (profile: Profile) => Promise<void>) => Promise<void>,
  { scope: 'worker' },
] = [
  async ({ runTarget }, use) => {
    const { profile } = resolveRunTarget(runEnv(runTarget));
    rememberSecrets(profileSecrets(profile));
    await use(profile);
  },
  { scope: 'worker' },
];

export const test = base.extend<GateTestFixtures, GateWorkerFixtures>({
  runTarget: runTargetOption,
  profile: profileFixture,
  target: [
    async ({ runTarget, profile, playwright }, use, workerInfo) => {
      const baseUrl = baseUrlOf(runEnv(runTarget), profile);
      const timeoutMs = profile.budget?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const tls = runTls(profile, runEnv(runTarget));
      // A private CA reaches Playwright's context through NODE_EXTRA_CA_CERTS, set by global setup before the
      // workers start; the client certificate and the insecure switch are the context's own options.
      const ctx = await playwright.request.newContext({
        timeout: timeoutMs,
        ignoreHTTPSErrors: tls.insecure,
        ...(tls.certPath && tls.keyPath
          ? {
              clientCertificates: [
                { origin: new URL(baseUrl).origin, certPath: tls.certPath, keyPath: tls.keyPath },
              ],
            }
          : {}),
      });
      const budget = Budget.forWorker(profile.budget, workerInfo.config.workers);
      const scheduler = schedulerFor(profile, baseUrl, budget.concurrency);
      const observer = observerFor(profile, baseUrl);
      const observe = (ex: Exchange) => observer.observe(seenOf(ex));
      await use(
        new Target(ctx, {
          baseUrl,
          budget,
          scheduler,
          timeoutMs,
          tls: nodeTlsOptions(tls),
          observe,
          refreshAuthorization: (value) => refreshedAuthorization(value),
        }),
      );
      await ctx.dispose();
    },
    { scope: 'worker' },
  ],
  mint: [
    async ({ profile }, use) => {
      await use(profile.jwt ? await TokenMint.create(profile.jwt) : undefined);
    },
    { scope: 'worker' },
  ],
  observations: observationsFlush,
  kit: async ({ profile, target, mint }, use) => {
    await use(new Kit(profile, target, mint));
  },
});

export { expect };

export const LEVEL_TAG = { MUST: '@must', SHOULD: '@should', INFO: '@info' } as const;

/**
 * Tags and annotations that point a test at its rule (the reporter reads nothing else):
 * `test('GET admin path with a non-admin Bearer token → 403', forRule(lackingRole), async ({ kit }) => …)`.
 */
export function forRule(rule: Rule): {
  tag: string[];
  annotation: { type: string; description: string }[];
} {
  return {
    tag: [LEVEL_TAG[rule.level], `@rule:${rule.id}`],
    annotation: [
      { type: ANNOTATION.rule, description: rule.id },
      ...rule.refs.map((ref) => ({ type: ANNOTATION.ref, description: ref.url })),
    ],
  };
}
