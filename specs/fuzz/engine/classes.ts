/**
 * Every failing class shown (issue #37): one shrunk counterexample per rule hides every other way the rule
 * fails — a scheme followed by several spaces refused, shrunk away into a letter-case variant that also fails.
 * After the property has found and shrunk its first counterexample, the rest of the rule's share of cases is
 * sent (a sweep under a seed of its own) and every failing answer is put in a class — the generator's kind (or
 * the plan's finer classification) and the answer's status. Each class other than the first counterexample's
 * is then replayed from its fast-check path and shrunk *within its class* (the property fails only on a case of
 * that class), so each is shown at its smallest, with its replay line.
 */
import fc from 'fast-check';
import type { FuzzRequest } from '../request.ts';
import type { Exchange } from './types.ts';
import type { Verdict } from './verdict.ts';

/** Classes shown beyond the first counterexample; more are counted, not shrunk. */
export const MAX_EXTRA_CLASSES = 6;
/** Requests each extra class may spend shrinking. */
export const CLASS_SHRINK_CASES = 300;

export type Failed = { readonly exchange: Exchange; readonly verdict: Extract<Verdict, { result: 'fail' }> };

/** `kind → status`: the generator's kind (or the plan's classification) and the answer. */
export function classOf(ex: Exchange, classify?: (request: FuzzRequest) => string): string {
  const status = ex.outcome.kind === 'response' ? String(ex.outcome.status) : 'no response';
  return `${classify?.(ex.request) ?? ex.request.kind} → ${status}`;
}

export interface ClassRun {
  /** Sends a batch and judges it: the failing exchanges (unjudged ones dropped). */
  readonly sendAndJudge: (batch: readonly FuzzRequest[]) => Promise<Failed[]>;
  readonly arbitrary: fc.Arbitrary<FuzzRequest>;
  readonly batchMax: number;
  readonly classify?: (request: FuzzRequest) => string;
}

export interface ClassFound {
  readonly key: string;
  readonly failed: Failed;
  /** Whether fast-check shrank it within its class (else: the first seen, unshrunk). */
  readonly shrunk: boolean;
  readonly path?: string;
}

export interface Sweep {
  /** Every failing class seen, the first counterexample's included. */
  readonly keys: readonly string[];
  /** The classes other than `known`, shrunk within their class (at most MAX_EXTRA_CLASSES). */
  readonly extra: readonly ClassFound[];
  /** Requests sent by the sweep and by the classes' shrinking. */
  readonly requests: number;
}

/**
 * Sends `cases` more cases under `seed` and sorts their failures into classes; then shrinks each class
 * other than `known` within itself.
 */
export async function sweepClasses(
  run: ClassRun,
  seed: number,
  cases: number,
  known: string,
): Promise<Sweep> {
  const first = new Map<string, { failed: Failed; runIndex: number }>();
  let sent = 0;
  let runIndex = -1;
  const batches = fc.array(run.arbitrary, { minLength: 1, maxLength: run.batchMax, size: 'max' });
  if (cases > 0)
    await fc.check(
      fc.asyncProperty(batches, async (generated) => {
        runIndex++;
        const room = cases - sent;
        if (room <= 0) return true;
        const batch = generated.slice(0, room);
        sent += batch.length;
        for (const failed of await run.sendAndJudge(batch)) {
          const key = classOf(failed.exchange, run.classify);
          if (!first.has(key)) first.set(key, { failed, runIndex });
        }
        return true;
      }),
      { seed, numRuns: Math.ceil(cases / 6) + 1 },
    );
  const extra: ClassFound[] = [];
  for (const [key, { failed, runIndex: index }] of first) {
    if (key === known || extra.length >= MAX_EXTRA_CLASSES) continue;
    let smallest: Failed | undefined;
    let spent = 0;
    const details = await fc.check(
      fc.asyncProperty(batches, async (batch) => {
        if (spent >= CLASS_SHRINK_CASES) return true;
        spent += batch.length;
        const hit = (await run.sendAndJudge(batch)).find((f) => classOf(f.exchange, run.classify) === key);
        if (hit === undefined) return true;
        smallest = hit;
        return false;
      }),
      { seed, path: String(index), numRuns: 1 },
    );
    sent += spent;
    extra.push(
      details.failed && smallest !== undefined && details.counterexamplePath !== null
        ? { key, failed: smallest, shrunk: true, path: details.counterexamplePath }
        : { key, failed, shrunk: false },
    );
  }
  return { keys: [...first.keys(), ...(first.has(known) ? [] : [known])], extra, requests: sent };
}
