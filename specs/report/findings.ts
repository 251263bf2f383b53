/**
 * Findings, worst first (issue #66): each failing rule (and each SHOULD warning) with what it costs and what to
 * change, ordered by impact — access granted without valid credentials, information leaked, wrong status
 * semantics, a legal request refused — then MUST before SHOULD, then catalogue order. So an access bypass
 * never reads like a refused spelling. Pure: computed from the rules list, so any reader recomputes it.
 */
import { IMPACTS, type Impact } from '../rules/types.ts';
import type { Finding, RuleReport } from './model.ts';

const isSuccess = (status: number) => status >= 200 && status <= 299;

/**
 * The impact of this failure: the rule's own, except that a rule asking for a refusal (its statuses all 4xx or
 * 5xx) whose failing answer was a 2xx granted access — a 403-for-401 is wrong semantics, a 200-for-401 a bypass.
 */
export function impactOf(rule: RuleReport): Impact {
  if (rule.impact !== 'status' || rule.statuses.length === 0 || rule.statuses.some(isSuccess))
    return rule.impact;
  const granted = rule.evidence.some((e) => e.response !== undefined && isSuccess(e.response.status));
  return granted ? 'access' : rule.impact;
}

const LEVEL_ORDER = { MUST: 0, SHOULD: 1, INFO: 2 } as const;

export function findingsOf(rules: readonly RuleReport[]): Finding[] {
  const order = new Map(rules.map((r, i) => [r.id, i]));
  return rules
    .filter((r) => (r.verdict === 'fail' || r.verdict === 'warn') && r.level !== 'INFO')
    .map((r): Finding => {
      const replay = r.evidence.find((e) => e.replay)?.replay;
      return {
        rule: r.id,
        level: r.level,
        impact: impactOf(r),
        verdict: r.verdict === 'fail' ? 'fail' : 'warn',
        remedy: r.remedy,
        ...(r.reason ? { reason: r.reason } : {}),
        ...(replay ? { replay } : {}),
      };
    })
    .sort(
      (a, b) =>
        IMPACTS.indexOf(a.impact) - IMPACTS.indexOf(b.impact) ||
        LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] ||
        (order.get(a.rule) ?? 0) - (order.get(b.rule) ?? 0),
    );
}
