/**
 * Where the run's cost of politeness waits for the reporter: global setup's teardown leaves the scheduler's
 * figures here, and the conformance reporter — in the same runner process, called after teardown — reads
 * them. A global symbol, not a module variable: Playwright may load the reporter and the global setup
 * through different module instances.
 */
import type { Politeness } from './coordinator.ts';

const KEY = Symbol.for('gatecheck.politeness');

export function storePoliteness(value: Politeness): void {
  (globalThis as Record<symbol, unknown>)[KEY] = value;
}

export function storedPoliteness(): Politeness | undefined {
  return (globalThis as Record<symbol, unknown>)[KEY] as Politeness | undefined;
}
