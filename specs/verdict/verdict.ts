/**
 * The one mapping from a broken rule's level to what the run does about it (docs/design.md "The suite's
 * rules"): MUST → a violation (the test fails); SHOULD → a `warning` annotation, a violation under strict
 * mode; INFO → an `observation` annotation. Conformance checks (specs/verdict/verify.ts) and fuzz plans
 * (specs/kit/fuzz-fixtures.ts) both decide through it.
 */
import type { TestInfo } from '@playwright/test';
import { isStrict } from '../../shared/env.ts';
import { ANNOTATION, type Level } from '../rules/types.ts';

export type Verdict = 'violation' | 'warning' | 'observation';

export function verdictFor(level: Level, strict: boolean = isStrict()): Verdict {
  if (level === 'INFO') return 'observation';
  if (level === 'SHOULD' && !strict) return 'warning';
  return 'violation';
}

/**
 * Records a broken rule on the current test: a warning or observation becomes an annotation carrying
 * `summary` and `false` is returned (the test goes on); `true` means a violation, for the caller to throw.
 */
export function recordBrokenRule(info: TestInfo, level: Level, summary: string): boolean {
  const verdict = verdictFor(level);
  if (verdict === 'violation') return true;
  info.annotations.push({ type: ANNOTATION[verdict], description: summary });
  return false;
}
