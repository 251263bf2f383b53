/**
 * The CI gate (issue #41): waivers and a baseline decide the exit code; they never change a rule's verdict.
 * A waived or known failure stays `fail` with all its evidence (conformance.json, the HTML, summary.md, JUnit
 * and a signed statement all show it as a failure); what the gate adds is a `waiver` or `baseline` member on
 * the rule and the `waivers`, `baseline` and `gate` sections. Pure: the files are read elsewhere.
 *
 * The gate fails on: a failing rule neither waived nor known from the baseline; anything that got worse
 * against the baseline (passed → fails, a MUST rule that ran → unchecked, a new rule failing); an expired
 * waiver; a stale waiver under --strict-waivers; and whatever fails the run outside the rules (a run that
 * did not complete, a broken suite test, --max-skipped-must), which no waiver can accept.
 */

import { idPattern } from '../../rules/id-pattern.ts';
import type {
  BaselineReport,
  GateReason,
  GateReport,
  RuleBaseline,
  RuleReport,
  RuleWaiver,
  Verdict,
  WaiverEntryReport,
  WaiversReport,
} from '../model.ts';
import type { Baseline } from './baseline-file.ts';
import { endpointCovers } from './endpoint-match.ts';
import type { Waiver } from './waiver-file.ts';

export interface GateInput {
  readonly waivers?: {
    readonly source: string;
    readonly entries: readonly Waiver[];
    readonly strict: boolean;
    /** YYYY-MM-DD (specs/report/gate/today.ts). */
    readonly today: string;
  };
  readonly baseline?: {
    readonly source: string;
    readonly report: Baseline;
    readonly catalogueVersion: string;
  };
  /** The target's base path (`/api` of https://host/api), taken off request paths before endpoint patterns. */
  readonly basePath: string;
  /** What fails the run outside the rules (aggregate.ts runReasons): no waiver or baseline accepts these. */
  readonly runReasons: readonly string[];
}

export interface Gated {
  readonly rules: readonly RuleReport[];
  readonly waivers?: WaiversReport;
  readonly baseline?: BaselineReport;
  readonly gate: GateReport;
}

const troubled = (v: Verdict) => v === 'fail' || v === 'warn';
const checked = (v: Verdict) => v === 'pass' || v === 'fail' || v === 'warn';
const unchecked = (v: Verdict) => v === 'skip' || v === 'not-run';
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The rule's change against the baseline, or undefined when there is nothing to say. */
function compare(
  rule: RuleReport,
  was: Verdict | undefined,
  sameCatalogue: boolean,
): RuleBaseline | undefined {
  if (was === undefined) return sameCatalogue ? undefined : { change: 'new', was: null };
  const now = rule.verdict;
  if (troubled(was) && troubled(now)) return { change: 'known', was };
  // Stopped by another rule's failure (issue #67): that failure is judged — new, known or waived — and this
  // rule runs again, on its own, once it is fixed.
  if (checked(was) && now === 'skip' && rule.causedBy?.length) return { change: 'stopped', was };
  if (troubled(was) && now === 'pass') return { change: 'fixed', was };
  if (now === 'fail') return { change: 'worse', was };
  // A MUST rule that ran and now does not: the gate would pass on a check it no longer makes. One the
  // declaration now rules out too: a profile edit never silences a rule the baseline judged (issue #66).
  if (rule.level === 'MUST' && checked(was) && (unchecked(now) || now === 'not-applicable'))
    return { change: 'worse', was };
  return undefined;
}

function worseLine(rule: RuleReport, mark: RuleBaseline | undefined): string {
  if (mark?.change === 'new') return `${rule.id}: a rule the baseline did not have, fails`;
  if (mark?.was && rule.verdict === 'fail') return `${rule.id}: ${mark.was} in the baseline, fails now`;
  if (mark?.was && rule.verdict === 'not-applicable')
    return `${rule.id}: MUST rule ran in the baseline (${mark.was}), not applicable now (${rule.reason ?? 'the declaration changed'}): the declared interface changed, refresh the baseline`;
  if (mark?.was) return `${rule.id}: MUST rule ran in the baseline (${mark.was}), ${rule.verdict} now`;
  return `${rule.id}: fails`;
}

/** Which live waivers of a failing rule cover which of its failing requests. */
function coverage(rule: RuleReport, live: readonly Waiver[], basePath: string) {
  const whole = live.find((w) => w.endpoint === undefined);
  if (whole) return { covering: whole, used: [whole], outside: [] as string[] };
  const used = new Set<Waiver>();
  const outside: string[] = [];
  for (const e of rule.evidence) {
    const by = live.find(
      (w) => w.endpoint !== undefined && endpointCovers(w.endpoint, e.request.url, basePath),
    );
    if (by) used.add(by);
    else outside.push(`${e.request.method} ${e.request.url}`.trim());
  }
  // A failure without evidence names no request: only a waiver of the whole rule can cover it.
  if (rule.evidence.length === 0) outside.push('(the failure names no request)');
  const [first] = used;
  return { covering: outside.length === 0 ? first : undefined, used: [...used], outside };
}

function staleNote(rule: RuleReport | undefined, waiver: Waiver): string {
  if (!rule) return 'its rule is not in this run';
  switch (rule.verdict) {
    case 'pass':
      return 'the rule passes now: remove the waiver';
    case 'skip':
      return rule.causedBy?.length
        ? `the rule was stopped by ${rule.causedBy.join(', ')} (its precondition failed): a waiver of ${rule.causedBy.length === 1 ? 'that rule' : 'those rules'} covers it; remove this one`
        : `the rule was skipped (${rule.reason ?? 'skipped'}): a waiver never turns a skip into a pass`;
    case 'not-run':
      return `the rule did not run (${rule.reason ?? 'not run'})`;
    case 'warn':
      return 'the rule only warns in this run (not --strict): nothing to waive';
    case 'not-applicable':
      return `the rule does not apply to the declared interface (${rule.reason ?? 'not applicable'}): remove the waiver`;
    case 'fail':
      return `its endpoint ${waiver.endpoint} matches none of the rule's failing requests`;
  }
}

function waiverOf(w: Waiver): RuleWaiver {
  return {
    reason: w.reason,
    until: w.until,
    ...(w.endpoint !== undefined ? { endpoint: w.endpoint } : {}),
    ...(w.ticket !== undefined ? { ticket: w.ticket } : {}),
  };
}

/** Whether a waiver's `rule` (an id, or a pattern such as `auth.401.*`) names the rule `id`. */
export function waiverMatches(w: Waiver, id: string): boolean {
  return idPattern(w.rule)(id);
}

export function applyGate(rules: readonly RuleReport[], input: GateInput): Gated {
  const blocking: string[] = [];
  const reasons: GateReason[] = [];
  const block = (kind: GateReason['kind'], text: string, rule?: string) => {
    blocking.push(text);
    reasons.push({ kind, text, ...(rule ? { rule } : {}) });
  };
  const accepts = new Map<Waiver, string[]>();
  const base = input.baseline;
  const wasById = new Map(base?.report.rules.map((r) => [r.id, r.verdict]) ?? []);
  const sameCatalogue = base ? base.report.catalogueVersion === base.catalogueVersion : true;
  const today = input.waivers?.today ?? '';
  const entries = input.waivers?.entries ?? [];
  const expired = (w: Waiver) => w.until < today;
  const used = new Set<Waiver>();
  const partial = new Map<Waiver, string>();

  const marked = rules.map((rule): RuleReport => {
    const mark = base ? compare(rule, wasById.get(rule.id), sameCatalogue) : undefined;
    let waiver: RuleWaiver | undefined;
    if (rule.verdict === 'fail') {
      const live = entries.filter((w) => waiverMatches(w, rule.id) && !expired(w));
      const { covering, used: matched, outside } = coverage(rule, live, input.basePath);
      for (const w of matched) used.add(w);
      if (covering) {
        waiver = waiverOf(covering);
        accepts.set(covering, [...(accepts.get(covering) ?? []), rule.id]);
      } else
        for (const w of matched)
          partial.set(w, `covers part of the failure; still failing: ${outside.join(', ')}`);
    }
    const accepted = waiver !== undefined || mark?.change === 'known';
    const lapsed = entries.some((w) => waiverMatches(w, rule.id) && expired(w));
    // An expired waiver is its own reason (below); a failure it no longer covers is not said twice.
    if (rule.verdict === 'fail' && !accepted && !lapsed) {
      block('failure', base ? `${worseLine(rule, mark)}` : `${rule.id} fails`, rule.id);
    } else if (mark?.change === 'worse' && rule.verdict !== 'fail') {
      block('worse', worseLine(rule, mark), rule.id);
    }
    return { ...rule, ...(waiver ? { waiver } : {}), ...(mark ? { baseline: mark } : {}) };
  });

  const byId = new Map(marked.map((r) => [r.id, r]));
  const entryReports = entries.map((w): WaiverEntryReport => {
    const pattern = w.rule.includes('*');
    const shown = { rule: w.rule, ...waiverOf(w) };
    if (expired(w)) {
      const line = `waiver for ${w.rule} expired on ${w.until}: ${w.reason}`;
      block('expired', line, w.rule);
      return { ...shown, state: 'expired', note: line };
    }
    if (used.has(w)) {
      const note = partial.get(w);
      const matched = accepts.get(w) ?? [];
      return {
        ...shown,
        state: 'applied',
        ...(pattern ? { matched } : {}),
        ...(note ? { note } : {}),
      };
    }
    const note = pattern
      ? `the pattern matched no failing rule (it names ${marked.filter((r) => waiverMatches(w, r.id)).length} rules, none fails): remove it`
      : staleNote(byId.get(w.rule), w);
    if (input.waivers?.strict)
      block('stale', `waiver for ${w.rule} is stale (--strict-waivers): ${note}`, w.rule);
    return { ...shown, state: 'stale', note };
  });
  for (const reason of input.runReasons) block('run', reason);

  const failing = marked.filter((r) => r.verdict === 'fail');
  const waived = failing.filter((r) => r.waiver).length;
  const known = failing.filter((r) => r.baseline?.change === 'known').length;
  const unaccepted = failing.filter((r) => !r.waiver && r.baseline?.change !== 'known').length;
  const fixed = marked.filter((r) => r.baseline?.change === 'fixed').map((r) => r.id);
  const counts = {
    failing: failing.length,
    waived,
    known,
    unaccepted,
    fixed: fixed.length,
    stale: entryReports.filter((e) => e.state === 'stale').length,
    expired: entryReports.filter((e) => e.state === 'expired').length,
  };
  const passed = blocking.length === 0;
  const worse = marked
    .filter((r) => r.baseline?.change === 'worse' || (r.baseline?.change === 'new' && r.verdict === 'fail'))
    .map((r) => worseLine(r, r.baseline));
  const accepted = [waived ? `${waived} waived` : '', known ? `${known} known from the baseline` : ''].filter(
    Boolean,
  );
  // Worse than the baseline and still passing the gate: only a live waiver can have accepted it.
  const againstBaseline = !base
    ? ''
    : worse.length
      ? `; ${worse.length} worse than the baseline, waived`
      : '; nothing got worse than the baseline';
  const statement = passed
    ? `Gate passed: ${
        failing.length
          ? `${plural(failing.length, 'failing rule')} accepted (${accepted.join(', ')})`
          : 'no rule fails'
      }${againstBaseline}${fixed.length ? `; ${fixed.length} fixed` : ''}`
    : `Gate failed: ${blocking.join('; ')}`;

  return {
    rules: marked,
    ...(input.waivers
      ? {
          waivers: {
            source: input.waivers.source,
            today: input.waivers.today,
            strict: input.waivers.strict,
            entries: entryReports,
          },
        }
      : {}),
    ...(base
      ? {
          baseline: {
            source: base.source,
            catalogueVersion: base.report.catalogueVersion,
            startedAt: base.report.startedAt,
            newRules: sameCatalogue
              ? []
              : marked.filter((r) => r.baseline?.change === 'new').map((r) => r.id),
            removedRules: base.report.rules.map((r) => r.id).filter((id) => !byId.has(id)),
            worse,
            known: marked.filter((r) => r.baseline?.change === 'known').map((r) => r.id),
            fixed,
            stopped: marked
              .filter((r) => r.baseline?.change === 'stopped')
              .map((r) => `${r.id}: stopped by ${r.causedBy?.join(', ')}`),
          },
        }
      : {}),
    gate: { passed, statement, blocking, reasons, counts },
  };
}
