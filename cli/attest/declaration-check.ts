/**
 * verify's step 9 (issue #66): the interface a statement says the target was judged as is the one its embedded
 * redacted profile declares. The class, features and deviations are recomputed from that profile
 * (specs/declaration/ reads no credential, so the redacted form serves), and each rule the statement calls not
 * applicable must be one the declaration rules out by the installed catalogue's `requires`.
 */
import { notApplicableReason } from '../../specs/declaration/applicability.ts';
import { declarationOf } from '../../specs/declaration/declaration.ts';
import { declarationReport } from '../../specs/report/build.ts';
import type { Requirement } from '../../specs/rules/types.ts';
import { firstDifference } from './compare.ts';
import type { ConformancePredicate } from './statement.ts';

const shown = (value: unknown) => (value === undefined ? '(absent)' : JSON.stringify(value));

/** A cause when the statement's declaration or its not-applicable rules do not follow from its profile. */
export function declarationMismatch(
  predicate: ConformancePredicate,
  /** The installed catalogue's rules, when the statement was made with it (else `requires` is not compared). */
  rules: readonly { readonly id: string; readonly requires?: readonly Requirement[] }[] | undefined,
): string | undefined {
  const stated = predicate.declaration;
  const ruledOut = predicate.rules.filter((r) => r.verdict === 'not-applicable');
  if (stated === null) {
    return ruledOut.length
      ? `declaration: the statement names no declared interface, yet calls ${shown(ruledOut[0]?.id)} not applicable`
      : undefined;
  }
  const declaration = declarationOf(predicate.profile.redacted);
  const again = declarationReport(predicate.profile.redacted, declaration);
  const difference = firstDifference(again, stated);
  if (difference)
    return `declaration: the statement's declaration${difference.path} is ${shown(difference.actual)}, its embedded profile declares ${shown(difference.expected)}`;
  if (rules === undefined) return undefined;
  const byId = new Map(rules.map((r) => [r.id, r]));
  for (const { id } of ruledOut) {
    if (notApplicableReason(byId.get(id) ?? {}, declaration) === undefined)
      return `declaration: the statement calls ${shown(id)} not applicable, but the declared interface (${again.class}) requires it`;
  }
  return undefined;
}
