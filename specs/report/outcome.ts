/**
 * The run's verdict in three words, for renderers and the CLI: conformant, partial (nothing failed, but
 * gated rules were not checked) or not-conformant.
 */

import type { ConformanceReport, Outcome } from './model.ts';

/** Reports written before schema 1.1.0 carry no outcome: it is derived the way conclude() sets it. */
export function outcomeOf(conformance: ConformanceReport['conformance']): Outcome {
  if (conformance.outcome) return conformance.outcome;
  if (!conformance.conformant) return 'not-conformant';
  return conformance.complete ? 'conformant' : 'partial';
}

/**
 * Whether the run passes (the exit code 0): the gate's decision when waivers or a baseline were given, else
 * the verdict's. The verdict itself never changes with the gate.
 */
export function gatePassed(report: Pick<ConformanceReport, 'gate' | 'conformance'>): boolean {
  return report.gate ? report.gate.passed : report.conformance.conformant;
}
