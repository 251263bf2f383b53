/**
 * The baseline: the conformance.json of an earlier run (--baseline). Only what the comparison needs is read
 * (its catalogue version, when it ran, each rule's id, level and verdict), so a report of an older schema or
 * catalogue version compares too. A file that is not such a report is one line (the CLI exits 2 with it).
 */

import { VERDICTS, type Verdict } from '../model.ts';
import { GateInputError } from './gate-error.ts';

export interface BaselineRule {
  readonly id: string;
  readonly level: string;
  readonly verdict: Verdict;
}

export interface Baseline {
  readonly catalogueVersion: string;
  readonly startedAt: string;
  readonly rules: readonly BaselineRule[];
}

export function parseBaseline(json: string, source: string): Baseline {
  const bad = (why: string) =>
    new GateInputError(`--baseline ${source} ${why}: give the conformance.json of an earlier gatecheck run`);
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(json) as Record<string, unknown>;
  } catch {
    throw bad('is not JSON');
  }
  const catalogue = raw?.catalogue as { version?: unknown } | undefined;
  const run = raw?.run as { startedAt?: unknown } | undefined;
  if (
    !Array.isArray(raw?.rules) ||
    typeof catalogue?.version !== 'string' ||
    typeof run?.startedAt !== 'string'
  )
    throw bad('has no rules, catalogue.version or run.startedAt');
  const rules = (raw.rules as unknown[]).map((item, i) => {
    const r = (item ?? {}) as Record<string, unknown>;
    if (typeof r.id !== 'string' || typeof r.level !== 'string' || !VERDICTS.includes(r.verdict as Verdict))
      throw bad(`has a rules[${i}] without id, level and verdict`);
    return { id: r.id, level: r.level, verdict: r.verdict as Verdict };
  });
  return { catalogueVersion: catalogue.version, startedAt: run.startedAt, rules };
}
