/**
 * Assembles conformance.json from collected tests and run facts. Pure: the reporter gathers the facts
 * (Playwright, environment, files) and this turns them into the documented shape.
 */

import { notApplicable } from '../declaration/applicability.ts';
import { classLabel } from '../declaration/class-label.ts';
import { type Declaration, declarationOf } from '../declaration/declaration.ts';
import { deviationsOf } from '../declaration/deviations.ts';
import type { Rule } from '../rules/types.ts';
import { aggregate, conclude, countVerdicts, runReasons } from './aggregate.ts';
import type { CollectedTest } from './collect.ts';
import { findingsOf } from './findings.ts';
import { applyGate, type GateInput } from './gate/apply.ts';
import { type ConformanceReport, type DeclarationReport, REPORT_SCHEMA_VERSION } from './model.ts';
import { safeUrl, summarizeProfile } from './profile-summary.ts';
import type { Scrubber } from './scrub.ts';

export const SCHEMA_FILE = 'conformance.schema.json';

export interface BuildInput {
  readonly catalogue: { readonly rules: readonly Rule[]; readonly version: string };
  readonly tests: readonly CollectedTest[];
  readonly suiteVersion: string;
  readonly playwrightVersion: string;
  /** The target's base URL, or undefined when the suite started the bundled mock. */
  readonly baseUrl: string | undefined;
  readonly bundledMock: boolean;
  readonly profile: { readonly raw: unknown; readonly source: string } | null;
  readonly run: {
    readonly id?: string;
    readonly startedAt: Date;
    readonly durationMs: number;
    readonly seed: number;
    readonly budget?: number;
    readonly strict: boolean;
    readonly shard: string | null;
    readonly merged: boolean;
    readonly filter?: string;
    readonly maxSkippedMust?: number;
    readonly status: ConformanceReport['run']['status'];
    readonly errors: readonly string[];
    readonly unreachable?: boolean;
    readonly politeness?: ConformanceReport['run']['politeness'];
  };
  readonly scrub: Scrubber;
  /** Waivers and/or a baseline (--waivers, --baseline): the CI gate's input (specs/report/gate/). */
  readonly gate?: Omit<GateInput, 'runReasons'>;
  /** The run's set-up failed (the setup test, specs/setup/run.setup.ts, or the global setup): no check ran; the first error says why. */
  readonly setUpFailed?: boolean;
}

function notRunReason(input: BuildInput): string {
  // Nothing ran because the run stopped first (a profile file missing, a failed set-up): say that, not
  // that no test checks the rules.
  const [stopped] = input.run.errors;
  if ((input.tests.length === 0 || input.setUpFailed) && stopped !== undefined)
    return `not run: the run stopped before any test (${input.scrub.text(stopped.split('\n')[0] ?? stopped)})`;
  const filter = input.run.filter ? ` or not selected (${input.run.filter})` : '';
  if (input.run.shard) {
    return `not in shard ${input.run.shard}${filter}; merge the shards' blob reports for the full verdict`;
  }
  if (input.run.merged)
    return 'no test of it ran in any merged shard (filtered out, or no test checks it yet)';
  if (input.run.filter) return `not selected in this run (${input.run.filter})`;
  return 'no test in this suite version checks this rule yet';
}

function targetLabel(input: BuildInput): string {
  if (input.bundledMock) return input.baseUrl ? `bundled mock (${safeUrl(input.baseUrl)})` : 'bundled mock';
  return input.baseUrl ? safeUrl(input.baseUrl) : '(unknown)';
}

/** The interface the profile declares, as the report states it (specs/declaration/). */
export function declarationReport(
  profile: unknown,
  declaration: Declaration = declarationOf(profile),
): DeclarationReport {
  return {
    class: classLabel(declaration),
    features: [...declaration.features],
    deviations: deviationsOf(profile),
  };
}

export function buildReport(input: BuildInput): ConformanceReport {
  const { scrub } = input;
  const errors = input.run.errors.map((e) => scrub.text(e));
  const declaration = input.profile ? declarationOf(input.profile.raw) : undefined;
  const aggregated = aggregate({
    catalogue: input.catalogue.rules,
    tests: input.tests,
    strict: input.run.strict,
    notRunReason: notRunReason(input),
    scrub,
    ...(declaration ? { notApplicable: notApplicable(input.catalogue.rules, declaration) } : {}),
  });
  const declared =
    input.profile && declaration ? declarationReport(input.profile.raw, declaration) : undefined;
  const run: ConformanceReport['run'] = {
    ...(input.run.id ? { id: input.run.id } : {}),
    startedAt: input.run.startedAt.toISOString(),
    endedAt: new Date(input.run.startedAt.getTime() + input.run.durationMs).toISOString(),
    durationMs: Math.round(input.run.durationMs),
    seed: input.run.seed,
    ...(input.run.budget !== undefined ? { budget: input.run.budget } : {}),
    strict: input.run.strict,
    shard: input.run.shard,
    merged: input.run.merged,
    ...(input.run.filter ? { filter: scrub.text(input.run.filter) } : {}),
    ...(input.run.maxSkippedMust !== undefined ? { maxSkippedMust: input.run.maxSkippedMust } : {}),
    status: input.run.status,
    errors,
    ...(input.run.unreachable ? { unreachable: true } : {}),
    ...(input.run.politeness ? { politeness: input.run.politeness } : {}),
  };
  const { unattributed } = aggregated;
  const gated = input.gate
    ? applyGate(aggregated.rules, {
        ...input.gate,
        runReasons: runReasons(aggregated.rules, unattributed, run),
      })
    : undefined;
  const rules = gated?.rules ?? aggregated.rules;
  return {
    $schema: `./${SCHEMA_FILE}`,
    schemaVersion: REPORT_SCHEMA_VERSION,
    suite: { name: 'gatecheck', version: input.suiteVersion, playwrightVersion: input.playwrightVersion },
    catalogue: { version: input.catalogue.version, rules: input.catalogue.rules.length },
    target: {
      baseUrl: scrub.text(targetLabel(input)),
      profile: input.profile ? scrub.deep(summarizeProfile(input.profile.raw, input.profile.source)) : null,
      ...(declared ? { declaration: scrub.deep(declared) } : {}),
    },
    run,
    conformance: conclude(rules, unattributed, run, declared?.deviations),
    counts: countVerdicts(rules),
    findings: findingsOf(rules),
    rules,
    unattributed,
    ...(gated?.waivers ? { waivers: scrub.deep(gated.waivers) } : {}),
    ...(gated?.baseline ? { baseline: scrub.deep(gated.baseline) } : {}),
    ...(gated ? { gate: scrub.deep(gated.gate) } : {}),
  };
}
