/**
 * The faults feature's builder: the injector, from its settings and the policy's routes, and whether the
 * fault stage is needed at all — only when a fault can be asked for (the header honoured, rules
 * configured, or the control API on to set them at run time).
 */

import type { Router } from '../routing/router.ts';
import { asConfigError } from '../util/config-error.ts';
import { createFaultInjector, type FaultInjector } from './injector.ts';
import type { FaultSettings } from './settings.ts';

export interface Faults {
  readonly injector: FaultInjector;
  /** The fault stage belongs in the pipeline. */
  readonly active: boolean;
}

/** `headerEnabled`: the fault header's switch, resolved for the listener; `switchable`: the control API is on. */
export function buildFaults(
  settings: FaultSettings,
  headerEnabled: boolean,
  router: Router,
  switchable: boolean,
): Faults {
  const injector = asConfigError('config', () => createFaultInjector(settings, headerEnabled, router));
  return { injector, active: injector.headerEnabled || !injector.idle || switchable };
}
