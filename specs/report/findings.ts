/**
 * Findings, worst first (issue #66): each failing rule (and each SHOULD warning) with what it costs and what to
 * change, ordered by impact — access granted without valid credentials, information leaked, wrong status
 * semantics, a legal request refused — then MUST before SHOULD, then catalogue order. So an access bypass
 * never reads like a refused spelling. A finding carries the rules its failure stopped (their `causedBy`,
 * issue #67): one cause, its counterexample, and what it fails or stops. Pure: computed from the rules list.
 */
import { IMPACTS, type Impact } from '../rules/types.ts';
import type { Finding, RuleReport } from './model.ts';

const isSuccess = (status: number) => status >= 200 && status <= 299;

/**
 * The impact of this failure: the rule's own, except that a rule asking for an authentication or authorisation
 * refusal (401 or 403 among its statuses, no 2xx) whose failing answer was a 2xx granted access — a 403-for-401
 * is wrong semantics, a 200-for-401 a bypass. A 400 rule answered 200 (two Host lines served on a public read)
 * grants nothing and keeps its impact.
 */
export function impactOf(rule: RuleReport): Impact {
  const refusal = rule.statuses.includes(401) || rule.statuses.includes(403);
  if (rule.impact !== 'status' || !refusal || rule.statuses.some(isSuccess)) return rule.impact;
  const granted = rule.evidence.some((e) => e.response !== undefined && isSuccess(e.response.status));
  return granted ? 'access' : rule.impact;
}

const LEVEL_ORDER = { MUST: 0, SHOULD: 1, INFO: 2 } as const;

export function findingsOf(rules: readonly RuleReport[]): Finding[] {
  const order = new Map(rules.map((r, i) => [r.id, i]));
  const stopped = (id: string) => rules.filter((r) => r.causedBy?.includes(id)).map((r) => r.id);
  return rules
    .filter((r) => (r.verdict === 'fail' || r.verdict === 'warn') && r.level !== 'INFO')
    .map((r): Finding => {
      const replay = r.evidence.find((e) => e.replay)?.replay;
      const consequences = stopped(r.id);
      return {
        rule: r.id,
        level: r.level,
        impact: impactOf(r),
        verdict: r.verdict === 'fail' ? 'fail' : 'warn',
        remedy: r.remedy,
        ...(r.reason ? { reason: r.reason } : {}),
        ...(replay ? { replay } : {}),
        ...(consequences.length ? { consequences } : {}),
      };
    })
    .sort(
      (a, b) =>
        IMPACTS.indexOf(a.impact) - IMPACTS.indexOf(b.impact) ||
        LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] ||
        (order.get(a.rule) ?? 0) - (order.get(b.rule) ?? 0),
    );
}
