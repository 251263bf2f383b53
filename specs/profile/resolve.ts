/**
 * Which target and which profile a run uses (docs/design.md "The target profile"):
 * - neither BASE_URL nor GATECHECK_PROFILE: the bundled mock, started in-process, with its own profile;
 * - GATECHECK_PROFILE alone: its `baseUrl`, or the bundled mock when it has none;
 * - BASE_URL: that target, with GATECHECK_PROFILE (required: the suite knows nothing else about it).
 */
import { resolve } from 'node:path';
import { ENV } from '../../shared/env.ts';
import { DEFAULT_PROFILE_PATH, ProfileError, readProfile } from './load.ts';
import type { Profile } from './types.ts';

export interface RunTarget {
  readonly profilePath: string;
  readonly profile: Profile;
  /** SHA-256 of the profile text validated (specs/profile/load.ts PROFILE_CHECKED_ENV). */
  readonly profileDigest: string;
  /** Undefined: start the bundled mock. */
  readonly baseUrl: string | undefined;
}

export function resolveRunTarget(env: NodeJS.ProcessEnv = process.env): RunTarget {
  const fromEnv = env[ENV.baseUrl]?.trim() || undefined;
  const profileEnv = env[ENV.profile]?.trim() || undefined;
  if (fromEnv && !profileEnv) {
    throw new ProfileError(
      ENV.profile,
      `is required when ${ENV.baseUrl} is set (the suite knows a target only through its profile; see docs/profile.md)`,
    );
  }
  if (fromEnv && !/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(fromEnv)) {
    throw new ProfileError(ENV.baseUrl, 'must be an http:// or https:// URL');
  }
  const profilePath = profileEnv ? resolve(profileEnv) : DEFAULT_PROFILE_PATH;
  const { profile, digest } = readProfile(profilePath, env);
  // With the default profile the target is always the embedded mock, whatever baseUrl the file carries.
  const baseUrl = fromEnv ?? (profileEnv ? profile.baseUrl : undefined);
  return { profilePath, profile, profileDigest: digest, baseUrl };
}
