/**
 * Defects that are a matter of configuration: the defective server runs with a setting the conformant one
 * would never have. Applied to the configuration once, before the app is built.
 */
import type { MockConfig } from '../config.ts';
import type { DefectName } from './registry.ts';

export function defectiveSettings(config: MockConfig, names: ReadonlySet<DefectName>): MockConfig {
  let out = config;
  if (names.has('no-rate-limit')) {
    // A limiter configured but never switched on: every client may send any number of requests.
    out = { ...out, rateLimit: { ...out.rateLimit, enabled: false } };
  }
  return out;
}
