/**
 * The gate's input from the run's settings: the waiver file (GATECHECK_WAIVERS, else the profile's `waivers`,
 * a path relative to the profile file), the baseline (GATECHECK_BASELINE), --strict-waivers and today. Read
 * by the reporter at the end of the run, and by the CLI before it (a bad file is exit 2 before any request).
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ENV } from '../../../shared/env.ts';
import type { GateInput } from './apply.ts';
import { parseBaseline } from './baseline-file.ts';
import { GateInputError } from './gate-error.ts';
import { todayOf } from './today.ts';
import { parseWaivers } from './waiver-file.ts';

export interface GateSources {
  /** Absolute paths. */
  readonly waivers?: string;
  readonly baseline?: string;
  readonly strictWaivers: boolean;
}

/** The profile's `waivers` field, resolved against the profile file's folder. */
export function profileWaivers(profileRaw: unknown, profileFile: string | undefined): string | undefined {
  const field = (profileRaw as { waivers?: unknown } | null)?.waivers;
  if (typeof field !== 'string' || field.trim() === '') return undefined;
  return path.resolve(profileFile ? path.dirname(profileFile) : process.cwd(), field);
}

export function gateSourcesFromEnv(
  env: NodeJS.ProcessEnv,
  profileRaw: unknown,
  profileFile: string | undefined,
): GateSources {
  const waivers = env[ENV.waivers]?.trim() || profileWaivers(profileRaw, profileFile);
  const baseline = env[ENV.baseline]?.trim();
  return {
    ...(waivers ? { waivers: path.resolve(waivers) } : {}),
    ...(baseline ? { baseline: path.resolve(baseline) } : {}),
    strictWaivers: env[ENV.strictWaivers] === '1' || env[ENV.strictWaivers] === 'true',
  };
}

function read(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new GateInputError(
      `${what} ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
}

/**
 * The gate's input, or undefined when neither waivers nor a baseline were given. `shown` names a file the
 * way the report should (relative to the working directory). Throws GateInputError naming the file and field.
 */
export function loadGate(
  sources: GateSources,
  catalogue: { readonly ids: readonly string[]; readonly version: string },
  options: {
    readonly env?: NodeJS.ProcessEnv;
    readonly baseUrl?: string;
    readonly shown?: (file: string) => string;
  } = {},
): Omit<GateInput, 'runReasons'> | undefined {
  if (!sources.waivers && !sources.baseline) return undefined;
  const shown = options.shown ?? ((f: string) => f);
  let basePath = '';
  try {
    basePath = options.baseUrl ? new URL(options.baseUrl).pathname.replace(/\/+$/, '') : '';
  } catch {
    // A base URL that does not parse was refused before the run; no prefix to take off.
  }
  return {
    basePath,
    ...(sources.waivers
      ? {
          waivers: {
            source: shown(sources.waivers),
            entries: parseWaivers(read(sources.waivers, 'waivers'), shown(sources.waivers), catalogue.ids),
            strict: sources.strictWaivers,
            today: todayOf(options.env),
          },
        }
      : {}),
    ...(sources.baseline
      ? {
          baseline: {
            source: shown(sources.baseline),
            report: parseBaseline(read(sources.baseline, '--baseline'), shown(sources.baseline)),
            catalogueVersion: catalogue.version,
          },
        }
      : {}),
  };
}
