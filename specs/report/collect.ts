/**
 * Reads what a test says about its rule — tags, annotations, evidence attachments — following the
 * ANNOTATION convention of specs/rules/types.ts. Nothing else about a test (its title, its comments) is parsed.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { EVIDENCE_ATTACHMENT } from '../lib/evidence.ts';
import { ANNOTATION, type Level } from '../rules/types.ts';
import type { TestOutcome } from './model.ts';

/** One test as the aggregation sees it; strings are raw here and scrubbed when the report is built. */
export interface CollectedTest {
  readonly ruleIds: readonly string[];
  /** Level from the `@must` / `@should` / `@info` tag, if any. */
  readonly level?: Level;
  readonly title: string;
  readonly location: string;
  readonly outcome: TestOutcome;
  readonly durationMs: number;
  readonly attempts: number;
  readonly error?: string;
  readonly warnings: readonly string[];
  readonly skipReason?: string;
  readonly observations: readonly string[];
  /** Parsed `evidence.json` attachments (each an Evidence or an array of them); validated later. */
  readonly evidence: readonly unknown[];
  /** Rule ids or id patterns a skipped check names as the cause of its unmet precondition (ANNOTATION.cause). */
  readonly causes: readonly string[];
}

const RULE_TAG = '@rule:';
const LEVEL_TAGS: Readonly<Record<string, Level>> = { '@must': 'MUST', '@should': 'SHOULD', '@info': 'INFO' };

// ECMA-48 control sequences, as Playwright colours its assertion messages.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the ESC character is the point.
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/**
 * The clock is never a verdict: a test Playwright's timeout ended is skipped, with the reason, never failed —
 * whether the suite's clock fixture marked it (specs/run/test-clock-fixture.ts) or not.
 */
const timedOut = (test: TestCase): boolean => test.results.at(-1)?.status === 'timedOut';

function outcomeOf(test: TestCase): TestOutcome {
  if (timedOut(test)) return 'skipped';
  // What the check's last attempt found, whatever Playwright was told to expect: the suite never expects a check to
  // fail, and a harness that keeps its worker after a failed check marks it so (scripts/carriers/load.ts).
  if (test.results.at(-1)?.status === 'failed') return 'failed';
  switch (test.outcome()) {
    case 'expected':
      return test.results.at(-1)?.status === 'skipped' ? 'skipped' : 'passed';
    case 'flaky':
      return 'flaky';
    case 'skipped':
      return 'skipped';
    default:
      return 'failed';
  }
}

function titleOf(test: TestCase): string {
  const parts: string[] = [test.title];
  let suite: Suite | undefined = test.parent;
  while (suite && suite.type === 'describe') {
    parts.unshift(suite.title);
    suite = suite.parent;
  }
  return parts.join(' › ');
}

function readAttachment(attachment: TestResult['attachments'][number]): string | undefined {
  if (attachment.body) return attachment.body.toString('utf8');
  if (attachment.path) {
    try {
      return readFileSync(attachment.path, 'utf8');
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Annotations of the test and of its last result (runtime ones), without duplicates. */
function annotationsOf(
  test: TestCase,
  result: TestResult | undefined,
): { type: string; description?: string }[] {
  const seen = new Set<string>();
  const out: { type: string; description?: string }[] = [];
  for (const a of [...test.annotations, ...(result?.annotations ?? [])]) {
    const key = `${a.type}\u0000${a.description ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(a);
  }
  return out;
}

function skipDescriptions(test: TestCase): string[] {
  return annotationsOf(test, test.results.at(-1))
    .filter((a) => (a.type === 'skip' || a.type === 'fixme') && a.description)
    .map((a) => a.description as string);
}

/**
 * Why a skipped test did not count. Playwright also reports as skipped a test that was interrupted, and
 * one that "did not run" (a serial group stopped before it); the latter borrows the reason of the sibling
 * that was skipped on purpose, e.g. "profile lacks rateLimit".
 */
function skipReasonOf(test: TestCase, own: string | undefined): string {
  if (test.results.some((r) => r.status === 'interrupted'))
    return 'interrupted: the run stopped during this test';
  if (timedOut(test)) {
    const result = test.results.at(-1);
    return (
      own ??
      `ran out of time: Playwright's test timeout (${(test.timeout / 1000).toFixed(1)} s) ended it after ${((result?.duration ?? 0) / 1000).toFixed(1)} s; time is not evidence about the target: no verdict`
    );
  }
  const didNotRun = !test.results.length || test.expectedStatus !== 'skipped';
  if (!didNotRun) return own ?? 'skipped without a reason';
  const sibling = (test.parent?.allTests() ?? []).filter((t) => t !== test).flatMap(skipDescriptions)[0];
  return sibling
    ? `did not run: an earlier test of its serial group was skipped (${sibling})`
    : 'did not run: an earlier test of its serial group did not pass, or the run stopped first';
}

export function collectTest(test: TestCase, rootDir: string): CollectedTest {
  const result = test.results.at(-1);
  const annotations = annotationsOf(test, result);
  const described = (type: string) =>
    annotations.filter((a) => a.type === type && a.description).map((a) => a.description as string);

  const ruleIds = new Set<string>(described(ANNOTATION.rule));
  let level: Level | undefined;
  for (const tag of test.tags) {
    if (tag.startsWith(RULE_TAG)) ruleIds.add(tag.slice(RULE_TAG.length));
    level ??= LEVEL_TAGS[tag.toLowerCase()];
  }

  const evidence: unknown[] = [];
  for (const attachment of result?.attachments ?? []) {
    if (attachment.name !== EVIDENCE_ATTACHMENT) continue;
    const text = readAttachment(attachment);
    if (text === undefined) continue;
    try {
      evidence.push(JSON.parse(text));
    } catch {
      // A malformed attachment is a suite bug; keep it visible rather than drop it.
      evidence.push({ unparsed: text.slice(0, 2048) });
    }
  }

  const outcome = outcomeOf(test);
  const firstError = result?.errors[0];
  const errorText = firstError?.message ?? firstError?.value;
  const skipReasons = described('skip').concat(described('fixme'));
  // A test declared through a helper (the suite's `check()`) has the helper as its location; the spec
  // file is the nearest 'file' suite, and the line only means something when it is in that file.
  let fileSuite: Suite | undefined = test.parent;
  while (fileSuite && fileSuite.type !== 'file') fileSuite = fileSuite.parent;
  const specFile = fileSuite?.location?.file ?? test.location.file;
  const line = specFile === test.location.file ? `:${test.location.line}` : '';
  const file = path.relative(rootDir, specFile) || specFile;

  return {
    ruleIds: [...ruleIds],
    ...(level ? { level } : {}),
    title: titleOf(test),
    location: `${file.split(path.sep).join('/')}${line}`,
    outcome,
    durationMs: test.results.reduce((sum, r) => sum + r.duration, 0),
    attempts: Math.max(1, test.results.length),
    ...(outcome === 'failed' && errorText ? { error: stripAnsi(errorText).slice(0, 4096) } : {}),
    warnings: described(ANNOTATION.warning),
    ...(outcome === 'skipped' ? { skipReason: skipReasonOf(test, skipReasons[0]) } : {}),
    observations: described(ANNOTATION.observation),
    evidence,
    causes: outcome === 'skipped' ? described(ANNOTATION.cause) : [],
  };
}
