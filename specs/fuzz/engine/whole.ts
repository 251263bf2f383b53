/**
 * Small attack spaces sent whole (issue #68): a plan whose cases form a finite catalogue of at most a few
 * hundred (8 key ids × 4 secrets × claims kept or escalated, the letter cases of "none", the JSON texts that
 * are no object) names every one, and the engine sends each before it samples anything. A defect that one
 * pair of the catalogue shows (a kid that names /dev/null, MAC'd with the empty secret) is then caught on
 * every seed, not on the seeds whose draw happens to hold that pair. Sampling stays for large spaces.
 *
 * The cases are sent in the catalogue's order, so a failure names its case by index: `whole:<index>` is its
 * path, and GATECHECK_FUZZ_REPLAY=<rule>:whole:<index> sends that case alone. Catalogue cases are constants,
 * already as small as their class allows: nothing is shrunk.
 */
import { RunBudgetExhausted } from '../../run/scheduler.ts';
import type { FuzzRequest } from '../request.ts';
import { type ClassFound, classOf, type Failed, MAX_EXTRA_CLASSES, type Sweep } from './classes.ts';
import { mapConcurrent } from './pool.ts';
import type { Exchange } from './types.ts';
import type { Verdict } from './verdict.ts';

/** The path prefix of a catalogue case (GATECHECK_FUZZ_REPLAY=<rule>:whole:<index>). */
export const WHOLE_PATH = 'whole:';

/** The index a `whole:<index>` path names, or undefined for a fast-check path. */
export function wholeIndex(path: string | undefined): number | undefined {
  if (path === undefined || !path.startsWith(WHOLE_PATH)) return undefined;
  const index = Number(path.slice(WHOLE_PATH.length));
  return Number.isSafeInteger(index) && index >= 0 ? index : undefined;
}

export interface WholeSent {
  /** Requests answered (a stopped run sends fewer than the catalogue holds). */
  readonly sent: number;
  /** The failures, in catalogue order, each with its index. */
  readonly failed: readonly (Failed & { readonly index: number })[];
  /** Why the catalogue was cut short (the run's budget), if it was. */
  readonly stopped?: string;
  /** Answers that said nothing about the rule (rate limiting), by reason. */
  readonly unjudged: Readonly<Record<string, number>>;
}

export interface WholeRun {
  readonly cases: readonly FuzzRequest[];
  readonly concurrency: number;
  readonly exchange: (request: FuzzRequest) => Promise<Exchange>;
  readonly judge: (ex: Exchange) => Verdict;
  /** Called with every answered exchange, in catalogue order (statistics, the rate-limit watch). */
  readonly onAnswer?: (ex: Exchange) => void;
}

/** Sends every case of the catalogue once and judges each answer. */
export async function sendWhole(run: WholeRun): Promise<WholeSent> {
  let stoppedBy: RunBudgetExhausted | undefined;
  const answered = await mapConcurrent(run.cases, run.concurrency, async (request) => {
    if (stoppedBy !== undefined) return undefined;
    try {
      return await run.exchange(request);
    } catch (e) {
      if (!(e instanceof RunBudgetExhausted)) throw e;
      stoppedBy ??= e;
      return undefined;
    }
  });
  const failed: (Failed & { index: number })[] = [];
  const unjudged: Record<string, number> = {};
  let sent = 0;
  answered.forEach((ex, index) => {
    if (ex === undefined) return;
    sent++;
    run.onAnswer?.(ex);
    const verdict = run.judge(ex);
    if (verdict.result === 'unjudged') unjudged[verdict.reason] = (unjudged[verdict.reason] ?? 0) + 1;
    if (verdict.result === 'fail') failed.push({ exchange: ex, verdict, index });
  });
  return { sent, failed, unjudged, ...(stoppedBy === undefined ? {} : { stopped: stoppedBy.message }) };
}

/** The failing classes of a catalogue sent whole: every one is known, none needs a sweep to find it. */
export function wholeClasses(failed: readonly Failed[], classify?: (request: FuzzRequest) => string): Sweep {
  const first = new Map<string, Failed>();
  for (const f of failed) {
    const key = classOf(f.exchange, classify);
    if (!first.has(key)) first.set(key, f);
  }
  const keys = [...first.keys()];
  const extra: ClassFound[] = keys
    .slice(1, 1 + MAX_EXTRA_CLASSES)
    .map((key) => ({ key, failed: first.get(key) as Failed, shrunk: false }));
  return { keys, extra, requests: 0 };
}
