/**
 * Which target and profile a CLI run means, decided before any request: the same resolution the suite
 * applies (specs/profile/resolve.ts), fed with the flags, so a bad profile is exit 2 with the loader's
 * one line naming the field, and never a half-started run.
 */

import { ENV } from '../shared/env.ts';
import { PROFILE_CHECKED_ENV } from '../specs/profile/load.ts';
import { type RunTarget, resolveRunTarget } from '../specs/profile/resolve.ts';
import type { RunOptions } from './args.ts';
import { baseUrlOf } from './args.ts';
import { UsageError } from './exit-codes.ts';

/**
 * The environment the suite will see for target and profile: flags override inherited variables. The CLI
 * validates the profile itself, so an inherited mark of an already validated profile is dropped.
 */
export function targetEnv(
  options: Pick<RunOptions, 'baseUrl' | 'profile' | 'caCert'>,
  env = process.env,
): NodeJS.ProcessEnv {
  const { [PROFILE_CHECKED_ENV]: _inherited, ...rest } = env;
  return {
    ...rest,
    ...(options.caCert ? { [ENV.caCert]: options.caCert } : {}),
    ...(options.baseUrl ? { [ENV.baseUrl]: options.baseUrl } : {}),
    ...(options.profile ? { [ENV.profile]: options.profile } : {}),
  };
}

/** Throws UsageError or the loader's ProfileError (both exit 2). */
export function resolveTarget(
  options: Pick<RunOptions, 'baseUrl' | 'profile' | 'caCert'>,
  env = process.env,
): RunTarget {
  const merged = targetEnv(options, env);
  if (options.baseUrl && !merged[ENV.profile]?.trim()) {
    throw new UsageError(
      '--profile is required with --base-url: the suite knows a target only through its profile (see docs/cli.md)',
    );
  }
  const target = resolveRunTarget(merged);
  // A baseUrl written in the profile gets the same check as the flag.
  if (target.baseUrl) baseUrlOf(target.baseUrl, options.baseUrl ? '--base-url' : 'profile: /baseUrl');
  return target;
}

function urlOf(baseUrl: string, endpointPath: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${endpointPath.startsWith('/') ? '' : '/'}${endpointPath}`;
}

/** The URL the preflight asks: the profile's public endpoint if it has one, else the base URL itself. */
export function preflightUrl(target: RunTarget & { baseUrl: string }): string {
  const publicPath = target.profile.endpoints.public?.path;
  return publicPath ? urlOf(target.baseUrl, publicPath) : `${target.baseUrl.replace(/\/+$/, '')}/`;
}

/**
 * Every endpoint the profile declares as existing (all but `missing`, which must answer 404), public first,
 * each path once: if all of them answer 404, the base URL, not the target, is what is wrong.
 */
export function declaredUrls(target: RunTarget & { baseUrl: string }): string[] {
  const { missing: _missing, ...existing } = target.profile.endpoints;
  const paths = Object.values(existing)
    .filter((e): e is NonNullable<typeof e> => e !== undefined)
    .map((e) => e.path);
  return [...new Set(paths)].map((p) => urlOf(target.baseUrl, p));
}
