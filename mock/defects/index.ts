/**
 * Switches the mock into its defect modes (mock/defects/registry.ts). Resolved once at start-up: with no
 * defect on, `openDefects` returns undefined and mock/app.ts builds the conformant pipeline untouched — no
 * wrapper, no lookup, nothing per request. With defects on, each one's hooks (mock/defects/define.ts) are
 * applied to the seams they name: the configuration, the authenticator (and its Bearer verifier), the
 * pipeline's replies (mock/defects/seams/), the resource engine.
 */
import type { Authenticator } from '../auth/types.ts';
import type { MockConfig } from '../config.ts';
import type { Pipeline } from '../pipeline/compose.ts';
import type { ResourceEngine } from '../resources/types.ts';
import type { Router } from '../routing/router.ts';
import { DEFECT_NAMES, DEFECTS, type DefectName, type DefectSpec } from './registry.ts';
import { defectiveAuthenticator } from './seams/authenticator.ts';
import { defectivePipeline } from './seams/replies.ts';
import { defectiveSettings } from './seams/settings.ts';

export { DEFECT_NAMES, DEFECTS, type DefectName, type DefectSpec, defectByName } from './registry.ts';

export interface Defects {
  /** The defects on, in registry order. */
  readonly names: readonly DefectName[];
  /** The configuration as the defective server would run it (e.g. rate limiting off). */
  settings(config: MockConfig): MockConfig;
  /** Wraps the authenticator (or returns it) for the credential defects. */
  authenticator(real: Authenticator, router: Router, config: MockConfig): Promise<Authenticator>;
  /** Wraps the composed pipeline (or returns it) for the defects in what the mock answers. */
  pipeline(run: Pipeline, beside: PipelineParts, config: MockConfig): Pipeline;
  /** Wraps the resource engine (or returns it) for the defects in what a write does to the data. */
  engine(real: ResourceEngine): ResourceEngine;
}

/** What the reply defects may use besides the pipeline (mock/defects/define.ts ReplyContext). */
export interface PipelineParts {
  readonly authenticator: Authenticator;
  readonly router: Router;
  /** The handler stage (stage 8). */
  readonly serve: Pipeline;
  readonly engine: ResourceEngine;
}

/** undefined when no defect is on: the caller then builds the conformant mock, with no wrapper at all. */
export function openDefects(names: readonly string[]): Defects | undefined {
  if (names.length === 0) return undefined;
  const unknown = names.filter((name) => !(DEFECT_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new TypeError(`unknown defect ${unknown.join(', ')} (npm run mock -- --list-defects lists them)`);
  }
  const on = (DEFECTS as readonly DefectSpec[]).filter((defect) => names.includes(defect.name));
  return {
    names: on.map((defect) => defect.name),
    settings: (config) => defectiveSettings(config, on),
    authenticator: (real, router, config) =>
      defectiveAuthenticator(real, on, { settings: config.auth, router }),
    pipeline: (run, beside, config) => defectivePipeline(run, on, { realm: config.realm, ...beside }),
    engine: (real) => on.reduce((engine, defect) => defect.hooks.engine?.(engine) ?? engine, real),
  };
}
