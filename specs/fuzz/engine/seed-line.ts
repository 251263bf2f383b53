/**
 * The fuzz phase's one line at the start of a run: the seed (and how to change it), the cases and the
 * requests in flight. docs/fuzzing.md: the seed is printed at the start of the run and with every failure.
 */
import { ENV } from '../../../shared/env.ts';
import type { Profile } from '../../profile/types.ts';
import { fuzzSettings } from './settings.ts';

export function seedLine(profile: Profile, workers: number, env: NodeJS.ProcessEnv = process.env): string {
  const settings = fuzzSettings(profile, workers, env);
  const source = settings.seedSource === 'default' ? `default; set ${ENV.seed} to change` : ENV.seed;
  return (
    `gatecheck fuzz: seed ${settings.seed} (${source}), ${settings.totalCases} cases across the fuzz rules, ` +
    `${settings.concurrency} in flight per worker\n`
  );
}
