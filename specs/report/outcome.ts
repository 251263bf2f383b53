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
