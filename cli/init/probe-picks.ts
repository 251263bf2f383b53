/**
 * `gatecheck init --probe <base-url>` (issue #69): before the profile is written, its public, protected and admin
 * picks are checked against the target's own answers (verify-endpoints.ts); a pick an answer contradicts is
 * passed over and the profile made again without it, so the next candidate is taken and checked in turn — until
 * every pick holds, no candidate is left, or the probe's budget is spent (probe.ts: GETs only, under the base URL,
 * paced, at most PROBE_LIMIT). The to-do line of each role says which answer passed which operation over.
 */
import type { Refuted } from './endpoints-section.ts';
import type { InitResult } from './openapi-profile.ts';
import { Prober, type ProberOptions } from './probe.ts';
import { PROBED_ROLES, type ProbedRole, type Verdict, verifyEndpoint } from './verify-endpoints.ts';

/** Rounds of making the profile again: each passes over at least one more operation. */
const MAX_ROUNDS = 12;

export interface ProbedPicks {
  readonly result: InitResult;
  /** The last verdict for each operation asked, in the order asked. */
  readonly verdicts: readonly Verdict[];
  readonly prober: Prober;
}

/** `make(refuted)`: the profile made from the document without the refuted picks (openapi-profile.ts). */
export async function probePicks(
  make: (refuted: Refuted) => InitResult,
  baseUrl: string,
  env: NodeJS.ProcessEnv,
  options: ProberOptions = {},
): Promise<ProbedPicks> {
  const prober = new Prober(baseUrl, options);
  const refuted: Record<ProbedRole, Map<string, string>> = {
    public: new Map(),
    protected: new Map(),
    admin: new Map(),
  };
  const verdicts = new Map<string, Verdict>();
  let result = make(refuted);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let passedOver = false;
    for (const role of PROBED_ROLES) {
      if ((result.profile.endpoints as Record<string, unknown>)[role] === undefined) continue;
      const verdict = await verifyEndpoint(prober, result.profile, role, env, result.declared[role]);
      verdicts.set(`${role} ${verdict.endpoint}`, verdict);
      if (verdict.contradiction === undefined || refuted[role].has(verdict.endpoint)) continue;
      refuted[role].set(verdict.endpoint, verdict.contradiction);
      passedOver = true;
    }
    if (!passedOver) break;
    result = make(refuted);
    if (prober.stopped !== undefined) break;
  }
  // A pick made after the last round, or after the probe stopped, was not confirmed: the run finds out.
  return { result, verdicts: [...verdicts.values()], prober };
}
