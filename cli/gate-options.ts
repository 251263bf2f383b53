/**
 * The CI gate's flags (issue #41): --waivers <file>, --baseline <conformance.json>, --strict-waivers. Parsed
 * here and checked before any request: a waiver naming a rule the catalogue does not know, a waiver without
 * reason or until, or a baseline that is not a report is exit 2 with one line. The files are read again by the
 * reporter at the end of the run (specs/report/gate/load.ts), which writes the gate into conformance.json.
 */

import path from 'node:path';
import { ENV } from '../shared/env.ts';
import { loadCatalogue } from '../specs/report/catalogue-source.ts';
import { GateInputError } from '../specs/report/gate/gate-error.ts';
import { type GateSources, loadGate, profileWaivers } from '../specs/report/gate/load.ts';
import { todayOf } from '../specs/report/gate/today.ts';
import { UsageError } from './exit-codes.ts';

export const GATE_FLAGS = {
  waivers: { type: 'string' },
  baseline: { type: 'string' },
  'strict-waivers': { type: 'boolean' },
} as const;

export interface GateFlags {
  /** Absolute. */
  readonly waivers?: string;
  /** Absolute. */
  readonly baseline?: string;
  readonly strictWaivers: boolean;
}

/** The gate flags from parseArgs' values; paths resolved against `cwd`. */
export function gateFlagsOf(values: Record<string, unknown>, cwd: string): GateFlags | undefined {
  const v = values as { waivers?: string; baseline?: string; 'strict-waivers'?: boolean };
  if (v.waivers !== undefined && v.waivers.trim() === '')
    throw new UsageError('--waivers must name a JSON file of {rule, reason, until} entries');
  if (v.baseline !== undefined && v.baseline.trim() === '')
    throw new UsageError("--baseline must name an earlier run's conformance.json");
  if (v.waivers === undefined && v.baseline === undefined && !v['strict-waivers']) return undefined;
  return {
    ...(v.waivers ? { waivers: path.resolve(cwd, v.waivers) } : {}),
    ...(v.baseline ? { baseline: path.resolve(cwd, v.baseline) } : {}),
    strictWaivers: v['strict-waivers'] === true,
  };
}

/** A shard's report is part of a verdict: the gate belongs to the merged run. */
export function refuseGateOnShard(flags: GateFlags | undefined): void {
  if (flags?.waivers || flags?.baseline || flags?.strictWaivers)
    throw new UsageError(
      '--waivers, --baseline and --strict-waivers belong to merge-reports, not to a --shard run',
    );
}

/**
 * Checks the gate's files now (exit 2 on a bad one) and returns the environment that hands them to the
 * reporter, with today's date fixed once for the whole run.
 */
export async function gateEnv(
  flags: GateFlags | undefined,
  profile: { readonly raw: unknown; readonly file: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<Record<string, string>> {
  const waivers = flags?.waivers ?? profileWaivers(profile.raw, profile.file);
  const sources: GateSources = {
    ...(waivers ? { waivers } : {}),
    ...(flags?.baseline ? { baseline: flags.baseline } : {}),
    strictWaivers: flags?.strictWaivers ?? false,
  };
  if (sources.strictWaivers && !sources.waivers)
    throw new UsageError('--strict-waivers needs waivers: --waivers <file> or the profile\'s "waivers"');
  // Set, even empty: a GATECHECK_WAIVERS or GATECHECK_BASELINE inherited from the shell, never checked, would
  // otherwise reach the reporter.
  const cleared = { [ENV.waivers]: '', [ENV.baseline]: '', [ENV.strictWaivers]: '' };
  if (!sources.waivers && !sources.baseline) return cleared;
  const catalogue = await loadCatalogue();
  try {
    loadGate(sources, { ids: catalogue.rules.map((r) => r.id), version: catalogue.version }, { env });
  } catch (e) {
    if (e instanceof GateInputError) throw new UsageError(e.message);
    throw e;
  }
  return {
    ...cleared,
    ...(sources.waivers ? { [ENV.waivers]: sources.waivers } : {}),
    ...(sources.baseline ? { [ENV.baseline]: sources.baseline } : {}),
    ...(sources.strictWaivers ? { [ENV.strictWaivers]: '1' } : {}),
    [ENV.today]: todayOf(env),
  };
}
